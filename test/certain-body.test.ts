import { beforeAll, describe, expect, it } from 'vitest';
import type { Probe } from '../core/probe-types.ts';
import { VALUE_KINDS } from '../evidence/neighbourhood.ts';
import { certainBody } from '../rules/body.ts';
import { RULES } from '../rules/index.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { answeredExchange, checkContext } from './support/answered-exchange.ts';

const ID = '6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6b';
const sent = {
  name: 'k\u0000ct',
  roles: ['developer', 'developer'],
  expireAt: '2026-12-05T23:39:10.000Z:00Z',
  ipAccessList: [{ source: '10.0.0.1\u0001ct', description: 'office' }],
};
/** What a target that took the odd values answers: each read its own way (the NUL cut, the duplicate dropped). */
const answered = {
  key: {
    id: ID,
    name: 'k',
    roles: ['developer'],
    expireAt: '2026-12-05T23:39:10Z',
    ipAccessList: [{ source: '10.0.0.1', description: 'office' }],
    keySuffix: 'abcd',
    createdAt: '2026-12-05T10:00:00Z',
  },
  keyId: 'kid',
  keySecret: 'secret',
};

describe("the request body as far as it makes an answer certain (a neighbourhood probe's odd value observed)", () => {
  let specs: Specs;
  beforeAll(async () => {
    specs = await loadShippedSpecs();
  });

  /** The paths keys.credentials-returned finds at fault in `answered` to `sent`, sent by `probe`. */
  function violations(probe: Probe): string[] {
    const operation = operationById(specs, 'createKey');
    const rule = RULES.find((r) => r.id === 'keys.credentials-returned')!;
    const exchange = answeredExchange(operation, sent, answered, probe);
    expect(rule.applies(exchange)).toBe(true);
    return rule.check(exchange, checkContext(operation, specs), undefined).map((v) => v.path);
  }

  const odd = (part: string, where: string): Probe => ({
    intent: 'observe',
    label: `${part} (${where})`,
    neighbourhood: { part, where },
  });

  it('leaves out only the field the odd value went to, in a list its first item', () => {
    const exchange = (probe: Probe) => answeredExchange(operationById(specs, 'createKey'), sent, answered, probe);
    expect(certainBody(exchange(odd(VALUE_KINDS.nul, 'name')))).toEqual({
      roles: sent.roles,
      expireAt: sent.expireAt,
      ipAccessList: sent.ipAccessList,
    });
    expect(certainBody(exchange(odd(VALUE_KINDS.control, 'ipAccessList.source')))?.ipAccessList).toEqual([
      { description: 'office' },
    ]);
    // A part of the request, not a kind of value: the body is all certain.
    expect(certainBody(exchange(odd('a top-level field no document names', 'name')))).toEqual(sent);
  });

  it('keys.credentials-returned compares every field but the odd one, which it fails on any other probe', () => {
    const every = ['/result/key/name', '/result/key/roles', '/result/key/ipAccessList/0', '/result/key/expireAt'];
    expect(violations({ intent: 'accept', label: 'a create' })).toEqual(every);
    const cases: [kind: string, where: string, path: string][] = [
      [VALUE_KINDS.nul, 'name', '/result/key/name'],
      [VALUE_KINDS.duplicates, 'roles', '/result/key/roles'],
      [VALUE_KINDS.control, 'ipAccessList.source', '/result/key/ipAccessList/0'],
      [VALUE_KINDS.form, 'expireAt', '/result/key/expireAt'],
    ];
    for (const [kind, where, path] of cases)
      expect(violations(odd(kind, where)), `${kind} (${where})`).toEqual(every.filter((one) => one !== path));
  });
});
