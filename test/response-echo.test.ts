import { beforeAll, describe, expect, it } from 'vitest';
import { answeredExchange, checkContext } from './support/answered-exchange.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { RULES } from '../rules/index.ts';

const RULE = RULES.find((rule) => rule.id === 'response.schema')!;

let specs: Specs;
beforeAll(async () => {
  specs = await loadShippedSpecs();
});

/** The paths response.schema finds in a 200 answer `result` to a request of `operationId` with body `sent`. */
function violations(operationId: string, sent: unknown, result: unknown): string[] {
  const operation = operationById(specs, operationId);
  const exchange = answeredExchange(operation, sent, result, { intent: 'observe', label: 'a partial body' });
  const context = checkContext(operation, specs);
  return RULE.check(exchange, context).map((v) => v.path);
}

const ID = '6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6b';
const TIME = '2026-11-25T10:00:00Z';
const pipe = (more: Record<string, unknown>): Record<string, unknown> => ({
  id: ID,
  serviceId: ID,
  state: 'Provisioning',
  createdAt: TIME,
  updatedAt: TIME,
  ...more,
});
const SOURCE = { broker: { brokers: 'b-1:9092', topics: 't' } };

describe('response.schema judges an answer against what its request makes certain', () => {
  it('lets a create answer leave out what the request left out, at any depth, and nothing else', () => {
    const sent = { name: 'p', source: SOURCE, destination: { table: 't', columns: [] }, fieldMappings: [] };
    const answer = pipe({ name: 'p', source: SOURCE, destination: { table: 't' }, fieldMappings: [] });
    expect(violations('createPipe', sent, answer)).toEqual([]);
    expect(violations('createPipe', { source: SOURCE }, pipe({ source: SOURCE }))).toEqual([]);
  });

  it('requires back what the request sent', () => {
    const sent = { name: 'p', source: SOURCE, destination: { database: 'd', table: 't' }, fieldMappings: [] };
    expect(
      violations('createPipe', sent, pipe({ source: SOURCE, destination: { table: 't' }, fieldMappings: [] })),
    ).toEqual(['/result/name', '/result/destination/database']);
  });

  it('requires what the target assigns, whatever the request sent', () => {
    const { id: _id, createdAt: _createdAt, ...answer } = pipe({ source: SOURCE });
    expect(violations('createPipe', { source: SOURCE }, answer).sort()).toEqual(['/result/createdAt', '/result/id']);
  });

  it("maps a key create's body onto the answer's key, and requires the key's own fields", () => {
    const key = { id: ID, keySuffix: 'abcd', createdAt: TIME };
    expect(
      violations(
        'createKey',
        { roles: ['developer'] },
        { keyId: 'k', keySecret: 's', key: { ...key, roles: ['developer'] } },
      ),
    ).toEqual([]);
    expect(
      violations(
        'createKey',
        { name: 'n', roles: ['developer'] },
        { keyId: 'k', keySecret: 's', key: { ...key, roles: ['developer'] } },
      ),
    ).toEqual(['/result/key/name']);
    expect(
      violations(
        'createKey',
        { name: 'n', roles: ['developer'] },
        { keyId: 'k', keySecret: 's', key: { name: 'n', roles: ['developer'], createdAt: TIME } },
      ).sort(),
    ).toEqual(['/result/key/id', '/result/key/keySuffix']);
  });

  it('relaxes nothing on an operation whose answer is not an echo (an update answers the whole pipe)', () => {
    expect(violations('updatePipe', { name: 'q' }, pipe({ name: 'q', source: SOURCE, fieldMappings: [] }))).toEqual([
      '/result/destination',
    ]);
  });
});
