import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answeredExchange, checkContext } from './support/answered-exchange.ts';
import { EQUIVALENCES, equivalenceOf, sameStoredValue, sameTotal, type DocumentedType } from '../core/sameness.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { RULES } from '../rules/index.ts';
import { documentedType, subsetViolations } from '../rules/subset.ts';

/** Pairs each entry must read as the same stored value, and pairs it must tell apart: sent, answered, documented. */
const CASES: Readonly<
  Record<string, { same: [unknown, unknown, DocumentedType?][]; different: [unknown, unknown, DocumentedType?][] }>
> = {
  'no value': {
    same: [
      [null, undefined],
      [null, null],
    ],
    different: [],
  },
  'lone surrogate': { same: [['a\ud800', 'a\ufffd']], different: [] },
  'binary64 number': {
    same: [
      [30000, 30000.0],
      [9007199254740993n, 9007199254740992],
      [10n ** 400n, 5],
    ],
    different: [
      [30000, 30001],
      [2 ** 31, -(2 ** 31)],
    ],
  },
  'stored instant': {
    same: [
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:00Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:00.250000+00:00', { format: 'date-time' }],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T15:30:00.25+05:30', { format: 'date-time' }],
      ['2026-12-05T10:00:00.750Z', '2026-12-05T10:00:01Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00.123456789Z', '2026-12-05T10:00:00.123457Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00Z', '2026-12-05T10:00:00.000000Z', { format: 'date-time' }],
    ],
    different: [
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:01Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:01.250Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:00.260Z', { format: 'date-time' }],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:00+05:30', { format: 'date-time' }],
      ['2026-12-05T10:00:00Z', '2026-12-05T09:59:59Z', { format: 'date-time' }],
    ],
  },
  'uuid in any case': {
    same: [
      ['6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6b', '6F0C1C1E-3B1A-4C1E-9A8B-0D7C2E4F5A6B'],
      ['abc', 'ABC', { format: 'uuid' }],
    ],
    different: [['6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6b', '6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6c']],
  },
  'scalar read as its documented type': {
    same: [
      [42, '42', { type: 'string' }],
      ['8', 8, { type: 'number' }],
      [' 8 ', 8, { type: 'integer' }],
      ['true', true, { type: 'boolean' }],
      ['yes', true, { type: 'boolean' }],
      [0, false, { type: 'boolean' }],
      [true, 'true', { type: 'string' }],
      [42, '42'],
    ],
    different: [
      [42, '43', { type: 'string' }],
      ['8', 9, { type: 'number' }],
      ['eight', 8, { type: 'number' }],
      ['maybe', true, { type: 'boolean' }],
      [0, 'admin', { type: 'string', enum: ['admin', 'developer'] }],
      ['0', 0, { type: 'string', enum: ['0'] }],

      [42, '42', { type: 'number' }],
    ],
  },
  'scalar read as a list of it': {
    same: [
      ['admin', ['admin']],
      ['8', [8], { type: 'array' }],
    ],
    different: [
      ['admin', ['admin', 'developer']],
      ['admin', ['developer']],
      ['admin', ['admin'], { type: 'string' }],
    ],
  },
  'text exact': {
    same: [[' a\u00a0b ', ' a\u00a0b ']],
    different: [
      [' a ', 'a'],
      ['<b>', '&lt;b&gt;'],
      ['e\u0301', '\u00e9'],
      ['2026-12-05T10:00:00.250Z', '2026-12-05T10:00:00Z', { type: 'string' }],
    ],
  },
};

describe('the table of equivalences (core/sameness.ts)', () => {
  it('names, for every entry, what it reads as the same and the real stacks that need it', () => {
    expect(EQUIVALENCES.map((entry) => entry.name)).toEqual(Object.keys(CASES));
    for (const entry of EQUIVALENCES) {
      expect(entry.reads.length, entry.name).toBeGreaterThan(20);
      expect(entry.stacks.length, entry.name).toBeGreaterThan(0);
    }
  });

  for (const [name, { same, different }] of Object.entries(CASES)) {
    it(`${name}: decides its pairs, the same and the different`, () => {
      for (const [sent, answered, documented] of same) {
        expect(sameStoredValue(sent, answered, documented), `${String(sent)} as ${String(answered)}`).toBe(true);
        expect(equivalenceOf(sent, answered, documented)?.name).toBe(name);
      }
      for (const [sent, answered, documented] of different)
        expect(sameStoredValue(sent, answered, documented), `${String(sent)} as ${String(answered)}`).toBe(false);
    });
  }
});

describe('a time whose written form the documents do not pin down (x-conformance-form: time)', () => {
  it('is compared as the same instant in any RFC 3339 form, and as text in any other form', () => {
    const marked = { type: 'string', 'x-conformance-form': 'time' };
    expect(documentedType(marked)).toEqual({ type: ['string'], format: 'date-time' });
    expect(subsetViolations('2020-01-01T00:00:00Z', '2020-01-01T05:30:00.000000+05:30', '', marked)).toEqual([]);
    expect(subsetViolations('2020-01-01T00:00:00Z', '2020-01-01T00:00:01Z', '', marked)).toHaveLength(1);
    expect(subsetViolations('2020-01-01T00:00', '2020-01-01T00:00', '', marked)).toEqual([]);
    expect(subsetViolations('2020-01-01T00:00', '2020-01-01T00:01', '', marked)).toHaveLength(1);
    expect(subsetViolations('2020-01-01T00:00:00Z', '2020-01-01T00:00:00+00:00', '', { type: 'string' })).toHaveLength(
      1,
    );
  });
});

describe('a total and its parts', () => {
  it('is the sum up to a cent per part, and no further', () => {
    expect(sameTotal([1.004, 2.004, 3.004], 6.0)).toBe(true);
    expect(sameTotal([0.1, 0.2], 0.3)).toBe(true);
    expect(sameTotal([1, 2, 3], 6.04)).toBe(false);
    expect(sameTotal([], 0.02)).toBe(false);
  });
});

describe('every comparing rule asks the table', () => {
  let specs: Specs;
  beforeAll(async () => {
    specs = await loadShippedSpecs();
  });

  /** The violations `ruleId` finds in an answer `payload` to a request of `operationId` with body `sent`. */
  function judged(
    ruleId: string,
    operationId: string,
    sent: unknown,
    payload: unknown,
    expected?: Readonly<Record<string, unknown>>,
  ): string[] {
    const rule = RULES.find((r) => r.id === ruleId)!;
    const operation = operationById(specs, operationId);
    const exchange = answeredExchange(
      operation,
      sent,
      payload,
      { intent: 'accept', label: 'an equivalence', ...(expected ? { expect: expected } : {}) },
      { serviceId: ID, pipeId: ID, id: ALERT },
    );
    const context = checkContext(operation, specs);
    expect(rule.applies(exchange)).toBe(true);
    return rule.check(exchange, context, undefined).map((v) => v.path);
  }

  const ID = '6f0c1c1e-3b1a-4c1e-9a8b-0d7c2e4f5a6b';
  const ALERT = '65a0c1e2f3a4b5c6d7e8f901';
  const key = (more: object) => ({
    key: { id: ID, name: 'k', roles: ['developer'], keySuffix: 'abcd', createdAt: '2026-12-05T10:00:00Z', ...more },
    keyId: 'kid',
    keySecret: 'secret',
  });

  it('keys.credentials-returned: an expireAt kept at whole seconds, a name sent as a number answered as text', () => {
    const sent = { name: 42, roles: ['developer'], expireAt: '2026-12-05T16:31:26.001Z' };
    expect(
      judged('keys.credentials-returned', 'createKey', sent, key({ name: '42', expireAt: '2026-12-05T16:31:26Z' })),
    ).toEqual([]);
    expect(
      judged('keys.credentials-returned', 'createKey', sent, key({ name: '42', expireAt: '2026-12-05T16:31:27Z' })),
    ).toEqual(['/result/key/expireAt']);
    expect(judged('keys.credentials-returned', 'createKey', sent, key({ name: '43', expireAt: null }))).toEqual([
      '/result/key/name',
      '/result/key/expireAt',
    ]);
  });

  it('alerts.update-applies and alerts.dashboard-mapping: a threshold sent as text answered as a number', () => {
    const sent = { name: 'a', threshold: '8', dashboardId: 'd1' };
    const alert = { id: ALERT, name: 'a', threshold: 8, dashboard: 'd1', savedSearch: null, groupBy: null };
    expect(judged('alerts.update-applies', 'updateAlert', sent, alert)).toEqual([]);
    expect(judged('alerts.dashboard-mapping', 'updateAlert', sent, alert)).toEqual([]);
    expect(judged('alerts.update-applies', 'updateAlert', sent, { ...alert, threshold: 9 })).toEqual([
      '/data/threshold',
    ]);
    expect(judged('alerts.dashboard-mapping', 'updateAlert', sent, { ...alert, dashboard: 'd2' })).toEqual([
      '/data/dashboard',
    ]);
  });

  it('pipes.state-consistent: createdAt as stored at whole seconds, a name read as text', () => {
    const pipeState = { id: ID, name: 7, createdAt: '2026-12-05T10:00:00.120Z', settings: { engine_max_threads: 4 } };
    const pipe = { id: ID, name: '7', createdAt: '2026-12-05T10:00:00+00:00', settings: { engine_max_threads: 4.0 } };
    expect(judged('pipes.state-consistent', 'updatePipe', { name: '7' }, pipe, { pipeState })).toEqual([]);
    expect(
      judged(
        'pipes.state-consistent',
        'updatePipe',
        { name: '7' },
        { ...pipe, createdAt: '2026-12-05T10:00:01Z' },
        {
          pipeState,
        },
      ),
    ).toEqual(['/result/createdAt']);
  });

  it('response.schema: null where a field exists only under a condition, and a value there still typed', () => {
    const rule = 'response.schema';
    const sent = { name: 'k', roles: ['developer'] };
    expect(judged(rule, 'createKey', sent, key({ usedAt: null, expireAt: null }))).toEqual([]);
    expect(judged(rule, 'createKey', sent, key({ usedAt: 5 }))).toEqual(['/result/key/usedAt']);
  });

  it('alerts.list-omits, response.schema: a list entry writing null for what it leaves out carries none of it', () => {
    const entry = { id: ALERT, name: 'a', threshold: 8, source: 'tile', tileId: 't1', dashboard: 'd1' };
    const nulls = { savedSearch: null, groupBy: null, silenced: null };
    expect(judged('alerts.list-omits', 'listAlerts', undefined, [{ ...entry, ...nulls }])).toEqual([]);
    expect(judged('response.schema', 'listAlerts', undefined, [{ ...entry, ...nulls }])).not.toContain(
      '/data/0/silenced',
    );
    expect(judged('alerts.list-omits', 'listAlerts', undefined, [{ ...entry, ...nulls, silenced: false }])).toEqual([
      '/data/0/silenced',
    ]);
  });
});

/** The files whose comparisons of an answer with what was sent or read before must ask the table. */
function comparingFiles(): string[] {
  const root = PACKAGE_ROOT;
  const rules = readdirSync(join(root, 'rules')).map((file) => join('rules', file));
  const models = ['suites/pipes', 'suites/alerts'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((file) => file.startsWith('sequence-'))
      .map((file) => join(dir, file)),
  );
  const shrinking = readdirSync(join(root, 'engine'))
    .filter((file) => file.startsWith('shrink') || file.startsWith('sequence-'))
    .map((file) => join('engine', file));
  return [...rules, ...models, ...shrinking].filter((file) => file.endsWith('.ts'));
}

/** Names the rules give an answered value, and a sent or expected one. */
const ANSWERED = 'result|answer|answered|actual|alert|listed|entry|item|object';
const SENT = 'body|sent|state|expected|before|kept';

/** What a comparison of a sent value with an answer by other means than the table looks like. */
const OTHER_MEANS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a number or instant compared outside the table', pattern: /\b(sameInstant|sameJsonNumber)\b/ },
  { what: 'a field of an answer compared with a sent key by ===', pattern: /\w+\[\w+\]\s*[!=]==\s*key\[/ },
  { what: 'ids compared by lower-casing', pattern: /toLowerCase\(\)\s*[!=]==|[!=]==\s*[\w.?()]*toLowerCase\(\)/ },
  { what: 'Object.is', pattern: /\bObject\.is\(/ },
  { what: 'a deep equality of values', pattern: /\b(isDeepStrictEqual|deepStrictEqual|deepEqual)\(/ },
  {
    what: 'an answered field compared with a sent or expected one by === or !==',
    pattern: new RegExp(
      [
        `\\b(${ANSWERED})\\??\\.(?!length\\b)\\w+\\s*[!=]==\\s*(${SENT}|key|known)\\b`,
        `\\b(${SENT})\\??\\.(?!length\\b)\\w+\\s*[!=]==\\s*(${ANSWERED})\\b`,
        `\\b(alert|result|answer|entry)\\??\\.\\w+\\s*[!=]==\\s*sent\\b`,
      ].join('|'),
    ),
  },
];

describe('no rule compares a sent value with an answer by other means than the table', () => {
  it('the scan finds the forms it looks for (the comparisons the table replaced)', () => {
    const replaced = [
      'if (alert.dashboard !== sent && ex.interval === undefined)',
      'if (state.name !== undefined && result.name !== state.name)',
      "import { sameInstant } from './instant.ts';",
      '(entry) => String(asObject(entry)?.id).toLowerCase() === String(history.id).toLowerCase(),',
      'return Object.is(expected, actual) ? [] : [violation];',
      'return isDeepStrictEqual(after, before)',
      'TABLE_KEY_FIELDS.every((field) => object[field] === key[field])',
    ];
    for (const line of replaced)
      expect(
        OTHER_MEANS.some(({ pattern }) => pattern.test(line)),
        line,
      ).toBe(true);
  });

  it('rules/, the sequence models and shrinking hold none of them', () => {
    const files = comparingFiles();
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((file) =>
      readFileSync(join(PACKAGE_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          OTHER_MEANS.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `${file}:${index + 1}: ${what}`),
        ),
    );
    expect(found).toEqual([]);
  });
});
