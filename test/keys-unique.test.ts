import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../core/exchange.ts';
import { loadShippedSpecs } from '../core/prepared-specs.ts';
import { createMemories, type RuleMemories } from '../core/rule.ts';
import { operationById, type Specs } from '../core/spec.ts';
import { createValidators } from '../core/validators.ts';
import { resolveConfig } from '../core/config.ts';
import { RULES } from '../rules/index.ts';

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
