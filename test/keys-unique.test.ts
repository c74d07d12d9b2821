import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../transport/exchange.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { createMemories, type RuleMemories } from '../rule-model/rule.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { createValidators } from '../spec/validators.ts';
import { resolveConfig } from '../settings/config.ts';
import { RULES } from '../rules/index.ts';
import { runInProcess } from './support/in-process.ts';

const RULE = RULES.find((rule) => rule.id === 'keys.credentials-unique')!;

let specs: Specs;
beforeAll(async () => {
  specs = await loadShippedSpecs();
});

/** A successful createKey exchange that answered these values. */
function created(label: string, requestId: string, id: string, keyId: string, keySecret: string): Exchange {
  const json = { status: 200, requestId, result: { key: { id, name: 'k', roles: ['admin'] }, keyId, keySecret } };
  return {
    api: 'management',
    operation: operationById(specs, 'createKey').key,
    operationId: 'createKey',
    probe: { intent: 'accept', label },
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, auth: 'default', params: {}, query: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(json),
      json,
      durationMs: 1,
    },
  };
}

/** Judges the exchanges in order, as a run records them, and returns each one's violations. */
function judgeAll(exchanges: Exchange[]): { path: string; expected: string; actual: unknown }[][] {
  const config = resolveConfig(
    [],
    {},
    RULES.map((r) => r.id),
  );
  const memories: RuleMemories = createMemories([RULE], { config, specs });
  const memory = memories.get(RULE.id);
  const context = { operation: operationById(specs, 'createKey'), specs, validators: createValidators() };
  return exchanges.map((exchange) => {
    const found = RULE.applies(exchange) ? RULE.check(exchange, context, memory) : [];
    RULE.memory?.answered?.(memory, exchange);
    return found.map(({ path, expected, actual }) => ({ path, expected, actual }));
  });
}

describe('keys.credentials-unique on the keys a run creates one after another', () => {
  it('passes distinct keys, and names the field and the earlier create of a shared one, never the secret', () => {
    const secret = 'ks_shared-secret-value';
    const results = judgeAll([
      created('a key', 'r-1', 'id-1', 'kid-1', secret),
      created('another key', 'r-2', 'id-2', 'kid-2', 'ks_other'),
      created('a third key', 'r-3', 'id-1', 'kid-3', secret),
    ]);
    expect(results.slice(0, 2)).toEqual([[], []]);
    expect(results[2]).toEqual([
      {
        path: '/result/key/id',
        expected: 'a `key.id` no earlier key of the run has',
        actual: 'the same as that of the key created by "a key" (requestId r-1)',
      },
      {
        path: '/result/keySecret',
        expected: 'a `keySecret` no earlier key of the run has',
        actual: 'the same as that of the key created by "a key" (requestId r-1) ([redacted])',
      },
    ]);
    expect(JSON.stringify(results)).not.toContain(secret);
  });

  it('keeps only hashes of the values it has seen', () => {
    const config = resolveConfig(
      [],
      {},
      RULES.map((r) => r.id),
    );
    const memory = createMemories([RULE], { config, specs }).get(RULE.id);
    RULE.memory?.answered?.(memory, created('a key', 'r-1', 'id-1', 'kid-1', 'ks_kept-secret'));
    expect(
      JSON.stringify([...(memory as Map<string, Map<string, string>>)].map(([k, v]) => [k, [...v]])),
    ).not.toContain('ks_kept-secret');
  });
});

describe('keys.credentials-unique on keys created at once', () => {
  it('narrows 3 keys created at once that shared a credential to the 2 that did, created at once again', async () => {
    const run = await runInProcess([
      '--rules',
      RULE.id,
      '--runs',
      '1',
      '--seed',
      '7',
      '--reference-fault',
      'key-ids-from-clock',
    ]);
    expect(run.code).toBe(1);
    // The valid create, the 3 keys at once, then the 2 of them that shared a credential, at once again.
    expect(run.report.stats.requests).toBe(6);
    const findings = run.report.results.filter((r) => r.rule === RULE.id).flatMap((r) => r.findings);
    const narrowed = findings.filter((f) => f.probe.includes('were created at once'));
    expect(narrowed).toHaveLength(1);
    const [finding] = narrowed;
    expect(finding!.probe).toMatch(
      new RegExp(
        '^a disabled key expiring within a day, created at once with others \\(3 were created at once; the 2 of ' +
          'them that shared a `(key\\.id|keyId|keySecret)` shared one again when only they were: the reproduction ' +
          'creates those 2 at once\\)$',
      ),
    );
    const curls = finding!.reproduce.curl.split(' & ');
    expect(curls).toHaveLength(3);
    expect(curls[2]).toBe('wait');
    for (const curl of curls.slice(0, 2))
      expect(curl).toMatch(/^curl -sS -i -X POST '.*\/keys' -u "\$MANAGEMENT_KEY_ID:\$MANAGEMENT_KEY_SECRET"/);
    // The two bodies of the 3 sent the first time, as sent.
    expect(new Set(curls.slice(0, 2)).size).toBe(2);
  });
});
