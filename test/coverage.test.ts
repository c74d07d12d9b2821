import { OpenValues } from '../suites/pipes/open-values.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { coverageRows } from '../evidence/coverage.ts';
import type { Exchange } from '../transport/exchange.ts';
import { coverFields } from '../evidence/field-coverage.ts';
import { documentedFields, presentFields } from '../spec/field-paths.ts';
import { TEXT_KIND_NAMES, textKindsOf } from '../evidence/text-kinds.ts';
import { createLedger } from '../evidence/ledger.ts';
import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import type { ProbeIntent } from '../core/probe-types.ts';
import { schemaProblem } from '../reports/file-schemas.ts';
import { ALERT_SEQUENCE_STEPS, alertSequences } from '../suites/alerts/sequence-alerts.ts';
import { pipeSequences } from '../suites/pipes/sequence-pipes.ts';
import { runInProcess, type InProcessRun } from './support/in-process.ts';
import { REQUEST_PARTS, VALUE_KINDS } from '../evidence/neighbourhood.ts';
import { FIELDS_PER_KIND } from '../suites/neighbourhood.ts';

describe('documented fields of a schema, and the fields a value has', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      roles: { type: 'array', items: { type: 'string', enum: ['admin', 'developer'] } },
      costs: {
        anyOf: [
          { type: 'object', properties: { date: { type: 'string' } } },
          { type: 'array', items: { type: 'object', properties: { date: { type: 'string' } } } },
        ],
      },
    },
  };

  it('walks objects, arrays and anyOf, a list and one entry being the same field, with string enums', () => {
    expect(documentedFields(schema)).toEqual({
      fields: ['name', 'roles', 'costs', 'costs.date'],
      enums: { roles: ['admin', 'developer'] },
      texts: ['name', 'costs.date'],
    });
  });

  it('names a free-text field only where its string has no enum, format or pattern', () => {
    const fields = documentedFields({
      type: 'object',
      properties: {
        message: { type: ['string', 'null'] },
        at: { type: 'string', format: 'date-time' },
        id: { type: 'string', pattern: '^[0-9a-f]{24}$' },
        kind: { type: 'string', enum: ['a'] },
        count: { type: 'integer' },
      },
    });
    expect(fields.texts).toEqual(['message']);
  });

  it('tells apart the kinds of text a string holds, a string being of several', () => {
    expect(textKindsOf('plain')).toEqual([]);
    expect(textKindsOf('')).toEqual(['empty']);
    expect(textKindsOf(' a')).toEqual(['whitespace at the ends']);
    expect(textKindsOf('a\u00a0b')).toEqual(['whitespace other than a space', 'non-ASCII characters']);
    expect(textKindsOf('<b>')).toEqual(['markup and quote characters']);
    expect(textKindsOf('\u{1F600}')).toEqual([
      'non-ASCII characters',
      'characters outside the Basic Multilingual Plane',
    ]);
    expect(textKindsOf('x'.repeat(1_000))).toEqual(['long text (1,000 characters or more)']);
    // A pair of surrogates is one character; one alone is a lone surrogate.
    expect(textKindsOf('\ud83d\ude00')).not.toContain('a lone surrogate');
    expect(textKindsOf('a\ud800')).toEqual(['non-ASCII characters', 'a lone surrogate']);
    expect(TEXT_KIND_NAMES).toHaveLength(8);
  });

  it('finds the same paths in a value, and the strings at enum paths', () => {
    const present = presentFields({ roles: ['admin'], costs: [{ date: 'x' }], extra: 1 }, new Set(['roles']));
    expect([...present.fields]).toEqual(['roles', 'costs', 'costs.date', 'extra']);
    expect([...(present.values.get('roles') ?? [])]).toEqual(['admin']);
  });
});

describe('coverage rows, credited by judgement', () => {
  it('lists by name a documented field never sent and an enum value never tried, apart by intent', async () => {
    const specs = await loadShippedSpecs();
    const operation = specs.operations.find((op) => op.operationId === 'createKey')!;
    const ledger = createLedger();
    const exchange = (intent: ProbeIntent, json: unknown): Exchange => ({
      api: 'management',
      operation: operation.key,
      operationId: operation.operationId,
      probe: { intent, label: 'x' },
      request: {
        method: 'POST',
        url: 'http://127.0.0.1/',
        headers: {},
        auth: 'default',
        params: {},
        query: {},
        json,
        body: JSON.stringify(json),
      },
      response: { status: 200, headers: {}, text: '', json: { result: { keyId: 'k', keySecret: 's' } }, durationMs: 1 },
    });
    coverFields(ledger, exchange('accept', { name: 'n', roles: ['admin'], state: 'disabled' }), operation);
    coverFields(ledger, exchange('observe', { name: 'n', roles: ['developer'] }), operation);
    const [row] = coverageRows(ledger.coverage, [
      {
        rule: 'keys.roles-enum',
        operation: operation.key,
        operationId: 'createKey',
        outcome: 'passed',
        message: '',
        checks: 0,
        violations: 0,
        findings: [],
      },
    ]);
    expect(row?.requestFields).toMatchObject({ accept: 3, observe: 2 });
    expect(row?.requestFields.neverSent).toContain('expireAt');
    expect(row?.requestFields.neverSent).toContain('ipAccessList.source');
    expect(row?.requestFields.neverSent).not.toContain('roles');
    const roles = row?.enumValues.find((e) => e.field === 'roles');
    expect(roles).toEqual({
      field: 'roles',
      values: ['admin', 'developer', 'query_endpoints'],
      accept: ['admin'],
      observe: ['developer'],
      neverTried: ['query_endpoints'],
    });
    expect(row?.enumValues.find((e) => e.field === 'state')?.neverTried).toEqual(['enabled']);
    expect(row?.textKinds.reached).toEqual([]);
    expect(row?.textKinds.untouched).toContain('name');
    expect(row?.responseFields.neverSeen).toContain('key.name');
    expect(row?.sequences).toBeNull();
  });
});

describe('a default run reports its coverage in findings.json, report.html and summary.md', () => {
  const RUNS = 2;
  let run: InProcessRun;
  beforeAll(async () => {
    run = await runInProcess(['--runs', String(RUNS), '--seed', '3']);
  }, 120_000);

  it(
    'has one row per operation with a verdict, each rule ' + 'with the parts that judged it adding up to its checks',
    () => {
      const rows = run.report.coverage ?? [];
      expect(rows.map((r) => r.operation)).toEqual([...new Set(run.report.results.map((r) => r.operation))]);
      for (const row of rows) {
        for (const rule of row.rules) {
          const result = run.report.results.find((r) => r.rule === rule.rule && r.operation === row.operation)!;
          expect(
            Object.values(rule.parts).reduce((a, b) => a + b, 0),
            `${rule.rule} on ${row.operation}`,
          ).toBe(result.checks);
        }
        expect(row.requests).toBe(run.report.stats.operations[row.operation]?.requests ?? 0);
      }
      expect(rows.find((r) => r.operationId === 'createPipe')?.requestFields.documented).toBeGreaterThan(50);
      expect(schemaProblem('findings', run.report)).toBeUndefined();
    },
  );

  it('says which kinds of text reached which free-text fields: every kind but empty reaches every name', () => {
    const rows = new Map((run.report.coverage ?? []).map((row) => [row.operationId, row]));
    const kinds = (id: string, field: string) => rows.get(id)?.textKinds.reached.find((t) => t.field === field);
    for (const [id, field] of [
      ['updatePipe', 'name'],
      ['createKey', 'name'],
      ['updateAlert', 'name'],
      ['updateAlert', 'message'],
    ] as const) {
      expect(kinds(id, field)?.neverSent, `${id} ${field}`).toEqual(['empty']);
      expect(kinds(id, field)?.observe, `${id} ${field}`).toContain('a lone surrogate');
    }
    // A field no probe sends special text to says so.
    expect(rows.get('createPipe')?.textKinds.untouched).toContain('destination.columns.name');
    expect(kinds('updatePipe', 'name')?.observe).toEqual(TEXT_KIND_NAMES.filter((kind) => kind !== 'empty'));
  });

  it('says which parts and kinds of the neighbourhood reached each operation, and why others did not', () => {
    const rows = new Map((run.report.coverage ?? []).map((row) => [row.operationId, row]));
    const sent = (id: string): Map<string, readonly string[]> =>
      new Map((rows.get(id)?.neighbourhood.sent ?? []).map((one) => [one.part, one.where]));
    // Every path gets one method it does not list; a pipe the run created may get any, elsewhere only those that read.
    for (const row of rows.values()) {
      const methods = sent(row.operationId!).get(REQUEST_PARTS.method) ?? [];
      expect(methods, row.operationId).toHaveLength(1);
      if (!['updatePipe', 'getPipeSettings'].includes(row.operationId!))
        expect(['GET', 'HEAD', 'OPTIONS'], row.operationId).toContain(methods[0]);
    }
    // The service's state gets nothing but a method that reads, and says why.
    expect([...sent('changeServiceState').keys()]).toEqual([REQUEST_PARTS.method]);
    expect(rows.get('changeServiceState')?.neighbourhood.notSent.map((one) => one.part)).toContain(
      REQUEST_PARTS.longId,
    );
    // A key's roles are its only array but its ipAccessList: both get a repeated item when the body carries them.
    expect(sent('createKey').get(VALUE_KINDS.duplicates)).toContain('roles');
    expect(sent('getUsageCost').get(REQUEST_PARTS.repeated)?.[0]).toMatch(/^(from|to)_date$/);
    expect(sent('updateAlert').get(VALUE_KINDS.form)).toEqual(['interval']);
    for (const id of ['createPipe', 'updatePipe', 'createKey', 'updateAlert'])
      for (const part of [REQUEST_PARTS.noContentType, REQUEST_PARTS.unknownField, VALUE_KINDS.nul])
        expect(sent(id).has(part), `${id}: ${part}`).toBe(true);
    // A kind reaches a bounded sample of fields; the others are listed as not drawn on this seed.
    const strings = rows.get('createPipe')?.neighbourhood;
    expect(strings?.sent.find((one) => one.part === VALUE_KINDS.nul)?.where).toHaveLength(FIELDS_PER_KIND);
    expect(strings?.notSent.find((one) => one.part === VALUE_KINDS.nul)?.reason).toMatch(/not drawn on this seed/);
  });

  it('counts the steps the sequences sent each operation by the kind of step before them', () => {
    const rows = new Map((run.report.coverage ?? []).map((row) => [row.operationId, row]));
    for (const id of ['createKey', 'getUsageCost', 'changeServiceState', 'getBackup'])
      expect(rows.get(id)?.sequences, id).toBeNull();
    const transitions = (id: string): string[] =>
      (rows.get(id)?.sequences?.transitions ?? []).map((t) => `${t.from} -> ${t.to}`);
    // Every sequence of pipes starts with a create; of alerts, with the list before it.
    expect(transitions('createPipe')).toContain('start -> create');
    // Every pipes sequence reads a pipe, updates it with a body built to be refused, and reads it again.
    expect(transitions('updatePipe')).toContain('read settings -> refused update');
    expect(transitions('getPipeSettings')).toContain('refused update -> read settings after a refusal');
    expect(transitions('listAlerts')).toContain('refused update -> list after a refusal');
    expect(transitions('getPipeSettings')).toContain('read settings -> read settings');
    expect(transitions('listAlerts')).toContain('start -> list');
    expect(transitions('updateAlert')).toContain('list -> update');
    // On a correct target nothing is shrunk and every sequence sends its plan: the planned steps, all answered.
    const steps = (...ids: string[]): number => ids.reduce((n, id) => n + (rows.get(id)?.sequences?.steps ?? 0), 0);
    expect(steps('createPipe', 'updatePipe', 'getPipeSettings')).toBe(
      pipeSequences(new OpenValues(), 'learn').estimate(RUNS),
    );
    expect(steps('updateAlert', 'listAlerts')).toBe(alertSequences(RUNS) * (ALERT_SEQUENCE_STEPS + 2));
    for (const row of rows.values()) {
      const sequences = row.sequences;
      if (!sequences) continue;
      expect(sequences.steps).toBe(sequences.transitions.reduce((n, t) => n + t.count, 0));
      expect(sequences.notSent).toBeUndefined();
    }
  });

  it('shows the same table in report.html and summary.md', async () => {
    const html = await readFile(join(run.reportDir, 'report.html'), 'utf8');
    const section = html.slice(html.indexOf('<h2 id="coverage">'), html.indexOf('<h2 id="skipped">'));
    // A row names its operation by operationId and method, with the whole `operationId (METHOD /path)` on hover.
    expect(section.match(/<tr><td title="/g)).toHaveLength(run.report.coverage?.length ?? -1);
    for (const row of run.report.coverage ?? [])
      expect(section).toContain(
        `<tr><td title="${row.operationId} (${row.operation})"><code>${row.operationId}</code> ` +
          `<span class="muted">${row.operation.split(' ')[0]}</span></td><td>${row.requests}</td>`,
      );
    const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
    for (const row of run.report.coverage ?? [])
      expect(summary).toContain(`| \`${row.operationId} (${row.operation})\` | ${row.requests} |`);
    const pipes = run.report.coverage?.find((row) => row.operationId === 'createPipe')?.sequences;
    expect(section).toContain(`<summary>${pipes?.steps} in ${pipes?.transitions.length} transition`);
    expect(section).toContain('<code>start</code> → <code>create</code>');
    // Every pipes sequence creates two pipes: start→create and create→create as often, in either order.
    expect(summary).toMatch(new RegExp(`\\| ${pipes?.steps}: [^|]*start→create ×\\d+`));
  });
});

describe('a run that sends no sequence says why in its coverage', () => {
  it('under --allow read, every operation the sequences send to says they were left out, and why', async () => {
    const run = await runInProcess(['--runs', '1', '--seed', '3', '--allow', 'read']);
    const rows = (run.report.coverage ?? []).filter((row) => row.sequences !== null);
    expect(rows.map((row) => row.operationId).sort()).toEqual(
      ['createPipe', 'getPipeSettings', 'listAlerts', 'updateAlert', 'updatePipe'].sort(),
    );
    for (const row of rows)
      expect(row.sequences).toEqual({
        steps: 0,
        transitions: [],
        notSent: 'probes of class write are not allowed (--allow read)',
      });
    expect(schemaProblem('findings', run.report)).toBeUndefined();
    const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
    expect(summary).toContain('| none: probes of class write are not allowed (--allow read) |');
    const html = await readFile(join(run.reportDir, 'report.html'), 'utf8');
    expect(html).toContain('<span class="muted">none: probes of class write are not allowed (--allow read)</span>');
  }, 60_000);
});
