import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../transport/exchange.ts';
import type { Violation } from '../rule-model/rule.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { createSecretIndex } from '../secrets/secret-index.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { createValidators } from '../spec/validators.ts';
import { RULES } from '../rules/index.ts';

const RULE = RULES.find((rule) => rule.id === 'secrets.absent')!;
const SENT = 'sv_Zq3kP@9wLmN:2xR7t/Y5uB8+cV1d F4gH';

let specs: Specs;
beforeAll(async () => {
  specs = await loadShippedSpecs();
});

/**
 * The rule's violations (path and expectation) for a createPipe answer with this JSON body and these headers, after
 * SENT was sent.
 */
function violations(body: unknown, headers: Record<string, string> = {}): { path: string; expected: string }[] {
  return violationsOf(body, headers).map(({ path, expected }) => ({ path, expected }));
}

/** Every violation of the rule for a createPipe answer with this JSON body and these headers, after SENT was sent. */
function violationsOf(body: unknown, headers: Record<string, string>): Violation[] {
  const text = JSON.stringify(body);
  const exchange: Exchange = {
    api: 'management',
    operation: operationById(specs, 'createPipe').key,
    operationId: 'createPipe',
    probe: { intent: 'accept', label: 'a valid pipe' },
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/x', headers: {}, auth: 'default', params: {}, query: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', ...headers },
      text,
      json: body,
      durationMs: 1,
    },
  };
  const context = { operation: operationById(specs, 'createPipe'), specs, validators: createValidators() };
  return RULE.check(exchange, context, createSecretIndex([SENT]));
}

/** The rule's violations (path and what it shows) for a createPipe answer, after SENT was sent. */
function violationsWithActual(
  body: unknown,
  headers: Record<string, string> = {},
): { path: string; actual: unknown }[] {
  return violationsOf(body, headers).map(({ path, actual }) => ({ path, actual }));
}

describe('secrets.absent on one answer', () => {
  it('finds a request-only field at any depth, inside objects and arrays, and names its path', () => {
    const found = violations({
      status: 200,
      result: {
        source: { broker: { schemaRegistry: { credentials: { username: 'u' } } } },
        sinks: [{ name: 'a' }, { accessKey: { id: 'k' } }],
      },
    });
    expect(found.map((v) => v.path).sort()).toEqual([
      '/result/sinks/1/accessKey',
      '/result/source/broker/schemaRegistry/credentials',
    ]);
    for (const v of found) expect(v.expected).toMatch(/^no `(credentials|accessKey)` field: it is request-only$/);
  });

  it(
    'finds a value sent earlier under any name, in the body and in a header, and passes an answer without ' + 'either',
    () => {
      const found = violations({ status: 200, result: { notes: [`copied ${SENT} here`] } }, { 'x-debug': SENT });
      expect(found).toEqual([
        { path: 'header:x-debug', expected: 'no secret value sent earlier' },
        { path: '/result/notes/0', expected: 'no secret value sent earlier' },
      ]);
      expect(
        violations({ status: 200, result: { source: { broker: { brokers: 'b-1:9092' } }, sinks: [{ name: 'a' }] } }),
      ).toEqual([]);
    },
  );

  it('finds a value sent earlier in an encoded form, and says which form', () => {
    const base64 = Buffer.from(SENT).toString('base64');
    const exchangeOf = violationsWithActual(
      { status: 200, result: { note: encodeURIComponent(SENT) } },
      {
        'x-debug': `Basic ${base64}`,
      },
    );
    expect(exchangeOf).toEqual([
      { path: 'header:x-debug', actual: '[redacted], base64 of the value' },
      { path: '/result/note', actual: '[redacted], percent-encoded' },
    ]);
  });
});
