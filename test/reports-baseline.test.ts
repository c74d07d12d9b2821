import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HarnessError } from '../core/errors.ts';
import { ADDED_REASON, compareWithBaseline, updatedBaseline } from '../reports/baseline-comparison.ts';
import { parseBaseline, readBaseline } from '../reports/baseline-file.ts';
import { runCli } from './support/cli.ts';
import { type InProcessRun, runInProcess } from './support/in-process.ts';
import { fixtureReport, fixtureResult, OPERATIONS } from './support/run-report-fixture.ts';

const { CREATE_KEY, LIST_ALERTS, GET_BACKUP } = OPERATIONS;
const entry = (rule: string, operation: string, extra: object = {}) => ({
  rule,
  operation,
  reason: 'ticket 7',
  ...extra,
});

function invalid(json: unknown, knownRules?: string[]): HarnessError {
  try {
    parseBaseline(json, 'known.json', knownRules);
  } catch (error) {
    return error as HarnessError;
  }
  throw new Error('expected BASELINE_INVALID');
}

describe('baseline file', () => {
  it.each([
    ['not an object', [], /known\.json is not a JSON object/],
    ['a wrong version', { version: 2, entries: [] }, /known\.json has "version" 2, not 1/],
    ['no entries', { version: 1 }, /known\.json has no "entries" \(an array\)/],
    [
      'an entry without reason',
      { version: 1, entries: [{ rule: 'auth.required', operation: CREATE_KEY }] },
      /known\.json entry 0 \(auth\.required on POST .*keys\) has no "reason"/,
    ],
    [
      'a bad date',
      { version: 1, entries: [entry('auth.required', CREATE_KEY, { expires: '2025-02-30' })] },
      /entry 0 .* has "expires" "2025-02-30", not a YYYY-MM-DD date/,
    ],
    [
      'an unknown field',
      { version: 1, entries: [entry('auth.required', CREATE_KEY, { expiry: '2025-01-01' })] },
      /entry 0 .* has unknown field "expiry"/,
    ],
    [
      'a repeated entry',
      { version: 1, entries: [entry('auth.required', CREATE_KEY), entry('auth.required', CREATE_KEY)] },
      /entry 1 .* repeats an earlier entry/,
    ],
  ])('rejects %s with BASELINE_INVALID naming the file and the entry', (_name, json, message) => {
    const error = invalid(json);
    expect(error.code).toBe('BASELINE_INVALID');
    expect(error.message).toMatch(message);
  });

  it('rejects a rule id the harness does not know', () => {
    expect(invalid({ version: 1, entries: [entry('auth.requird', CREATE_KEY)] }, ['auth.required']).message).toMatch(
      /entry 0 .* names unknown rule "auth\.requird"/,
    );
  });

  it('names the file when it cannot be read or parsed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baseline-'));
    await expect(readBaseline(join(dir, 'missing.json'))).rejects.toMatchObject({
      code: 'BASELINE_INVALID',
      message: expect.stringMatching(/missing\.json: ENOENT/),
    });
    await writeFile(join(dir, 'broken.json'), '{ "version": 1,');
    await expect(readBaseline(join(dir, 'broken.json'))).rejects.toMatchObject({
      code: 'BASELINE_INVALID',
      message: expect.stringMatching(/broken\.json is not JSON/),
    });
  });
});

describe('operation names in the baseline', () => {
  it('writes the operationId beside the METHOD /path key, and still reads and matches entries without it', () => {
    const results = [
      { ...fixtureResult('auth.required', CREATE_KEY, 'failed'), operationId: 'createKey' },
      { ...fixtureResult('auth.required', LIST_ALERTS, 'failed'), operationId: 'listAlerts' },
    ];
    const old = parseBaseline({ version: 1, entries: [entry('auth.required', CREATE_KEY)] }, 'old.json');
    expect(old.entries[0]).toEqual(entry('auth.required', CREATE_KEY));
    expect(updatedBaseline(results, old).entries).toEqual([
      { rule: 'auth.required', operation: CREATE_KEY, operationId: 'createKey', reason: 'ticket 7' },
      { rule: 'auth.required', operation: LIST_ALERTS, operationId: 'listAlerts', reason: ADDED_REASON },
    ]);
    const summary = compareWithBaseline(results, old, 'old.json', '2025-01-01');
    expect(summary.known).toEqual([{ ...entry('auth.required', CREATE_KEY), operationId: 'createKey' }]);
    expect(summary.new).toEqual([
      { rule: 'auth.required', operation: LIST_ALERTS, operationId: 'listAlerts', message: results[1]!.message },
    ]);
    expect(() =>
      parseBaseline({ version: 1, entries: [entry('auth.required', CREATE_KEY, { operationId: 3 })] }, 'b.json'),
    ).toThrow(/"operationId" 3, not a non-empty string/);
  });
});

describe('baseline comparison', () => {
  // auth.required fails on CREATE_KEY; passes on LIST_ALERTS; backups.identity skipped
  const results = fixtureReport().results;

  it('sorts failures into known and new, and finds expired entries and unexpected passes', () => {
    const summary = compareWithBaseline(
      results,
      {
        version: 1,
        entries: [
          entry('response.schema', CREATE_KEY),
          entry('auth.required', LIST_ALERTS),
          entry('backups.identity', GET_BACKUP, { expires: '2024-12-31' }),
        ],
      },
      'known.json',
      '2025-01-01',
    );
    expect(summary.known).toEqual([]);
    expect(summary.new).toEqual([{ rule: 'auth.required', operation: CREATE_KEY, message: results[0]!.message }]);
    expect(summary.expired).toEqual([
      { ...entry('backups.identity', GET_BACKUP, { expires: '2024-12-31' }), now: 'skipped' },
    ]);
    expect(summary.unexpectedPasses).toEqual([
      entry('response.schema', CREATE_KEY),
      entry('auth.required', LIST_ALERTS),
    ]);
  });

  it('accepts a known failure through the last day of its expiry', () => {
    const known = entry('auth.required', CREATE_KEY, { expires: '2025-01-01' });
    expect(compareWithBaseline(results, { version: 1, entries: [known] }, 'b', '2025-01-01')).toMatchObject({
      known: [known],
      new: [],
      expired: [],
    });
    expect(compareWithBaseline(results, { version: 1, entries: [known] }, 'b', '2025-01-02')).toMatchObject({
      known: [],
      new: [],
      expired: [{ ...known, now: 'failed' }],
    });
  });

  it('updates from the failures, keeping reasons and expiry, dropping passes, keeping entries not run', () => {
    const run = [...results, fixtureResult('response.schema', GET_BACKUP, 'failed')];
    const previous = {
      version: 1 as const,
      entries: [
        entry('auth.required', CREATE_KEY, { expires: '2030-01-01' }),
        entry('auth.required', LIST_ALERTS),
        entry('backups.identity', GET_BACKUP),
        entry('keys.roles-enum', CREATE_KEY),
      ],
    };
    expect(updatedBaseline(run, previous).entries).toEqual([
      entry('auth.required', CREATE_KEY, { expires: '2030-01-01' }),
      { rule: 'response.schema', operation: GET_BACKUP, reason: ADDED_REASON },
      entry('backups.identity', GET_BACKUP),
      entry('keys.roles-enum', CREATE_KEY),
    ]);
  });
});

/** The test cases of a junit.xml: name, and whether it failed, was skipped, or was skipped as a known failure. */
async function junitCases(
  file: string,
): Promise<{ name: string; body: string; failed: boolean; skipped: boolean; knownFailure: boolean }[]> {
  const xml = await readFile(file, 'utf8');
  return [...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/g)].map(([, name, body]) => ({
    name: name!,
    body: body!,
    failed: body!.includes('<failure'),
    skipped: body!.includes('<skipped'),
    knownFailure: body!.includes('known failure, accepted by the baseline'),
  }));
}

describe('conformance --baseline', () => {
  const RULES = ['--rules', 'auth.required,envelope.request-id-v4', '--runs', '2'];

  it(
    'passes with a known failure, fails on a new one and ' + 'on an expired entry, and reports unexpected passes',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'baseline-cli-'));
      const file = join(dir, 'known-failures.json');
      // In this process, as the binary runs it (test/cli.test.ts starts the binary itself).
      const run = (...args: string[]) => runInProcess([...RULES, ...args]);
      const junit = (done: InProcessRun) => junitCases(join(done.reportDir, 'junit.xml'));
      const findings = async (done: InProcessRun) =>
        JSON.parse(await readFile(join(done.reportDir, 'findings.json'), 'utf8'));

      const created = await run('--reference-fault', 'auth-missing-accepted', '--baseline', file, '--update-baseline');
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const written = JSON.parse(await readFile(file, 'utf8'));
      expect(written.version).toBe(1);
      expect(written.entries.length).toBeGreaterThan(0);
      expect(
        written.entries.every(
          (e: { rule: string; reason: string }) => e.rule === 'auth.required' && e.reason === ADDED_REASON,
        ),
      ).toBe(true);
      const updateCases = await junit(created);
      expect(updateCases.filter((c) => c.failed)).toEqual([]);
      expect(updateCases.filter((c) => c.knownFailure && c.body.includes('--update-baseline'))).toHaveLength(
        written.entries.length,
      );

      const known = await run('--reference-fault', 'auth-missing-accepted', '--baseline', file);
      expect(known.code).toBe(0);
      const knownDoc = await findings(known);
      expect(knownDoc.outcome).toBe('passed');
      expect(knownDoc.stats.failed).toBe(written.entries.length);
      expect(knownDoc.baseline).toMatchObject({ new: [], expired: [], unexpectedPasses: [] });
      expect(knownDoc.baseline.known).toHaveLength(written.entries.length);
      const knownCases = await junit(known);
      expect(knownCases.filter((c) => c.failed)).toEqual([]);
      const accepted = knownCases.filter((c) => c.knownFailure);
      expect(accepted).toHaveLength(written.entries.length);
      expect(accepted.every((c) => c.name.endsWith('&gt; auth.required'))).toBe(true);
      expect(accepted.every((c) => c.skipped && c.body.includes(ADDED_REASON))).toBe(true);

      const fresh = await run(
        '--reference-fault',
        'auth-missing-accepted',
        '--reference-fault',
        'request-id-not-uuid',
        '--baseline',
        file,
      );
      expect(fresh.code).toBe(1);
      const freshDoc = await findings(fresh);
      expect(freshDoc.outcome).toBe('failed');
      expect(freshDoc.baseline.new.length).toBeGreaterThan(0);
      expect(freshDoc.baseline.new.filter((f: { rule: string }) => f.rule !== 'envelope.request-id-v4')).toEqual([]);
      expect(fresh.stdout).toMatch(/new failure: envelope\.request-id-v4 on /);
      const freshCases = await junit(fresh);
      const freshFailed = freshCases.filter((c) => c.failed);
      expect(freshFailed).toHaveLength(freshDoc.baseline.new.length);
      expect(freshFailed.every((c) => c.name.endsWith('&gt; envelope.request-id-v4'))).toBe(true);
      expect(freshCases.filter((c) => c.knownFailure)).toHaveLength(written.entries.length);

      const clean = await run('--baseline', file);
      expect(clean.code).toBe(0);
      expect((await findings(clean)).baseline.unexpectedPasses).toHaveLength(written.entries.length);
      expect(clean.stdout).toMatch(/passes now, remove the entry: auth\.required on /);

      await writeFile(
        file,
        JSON.stringify({ ...written, entries: written.entries.map((e: object) => ({ ...e, expires: '2020-01-01' })) }),
      );
      const expired = await run('--reference-fault', 'auth-missing-accepted', '--baseline', file);
      expect(expired.code).toBe(1);
      expect((await findings(expired)).baseline.expired).toHaveLength(written.entries.length);
      const expiredCases = await junit(expired);
      expect(expiredCases.filter((c) => c.failed)).toHaveLength(written.entries.length);
      expect(expiredCases.filter((c) => c.knownFailure)).toEqual([]);
    },
  );

  it('exits 2 with BASELINE_INVALID naming the file and the entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baseline-cli-'));
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ version: 1, entries: [{ rule: 'auth.required', operation: CREATE_KEY }] }));
    const result = await runCli([...RULES, '--report-dir', join(dir, 'out'), '--baseline', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The baseline ${file} entry 0 (auth.required on ${CREATE_KEY}) has no "reason"`);
    expect(result.stderr).toContain('[BASELINE_INVALID]');
  });
});

describe('--update-baseline on an interrupted run', () => {
  it('leaves the baseline file as it was: a run a signal stopped did not see all of the target', async () => {
    const { judgeWithBaseline } = await import('../reports/baseline-run.ts');
    const dir = await mkdtemp(join(tmpdir(), 'baseline-interrupted-'));
    const file = join(dir, 'baseline.json');
    const before = `${JSON.stringify({ version: 1, entries: [] }, null, 2)}\n`;
    await writeFile(file, before);
    const failing = fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed')]);
    const loaded = { file, update: true, previous: { version: 1 as const, entries: [] } };
    await judgeWithBaseline({ ...failing, interrupted: 'SIGINT', outcome: 'interrupted' }, loaded, new Date());
    expect(await readFile(file, 'utf8')).toBe(before);
    await judgeWithBaseline(failing, loaded, new Date());
    expect((await readBaseline(file, ['auth.required'], [OPERATIONS.CREATE_KEY])).entries).toHaveLength(1);
  });
});
