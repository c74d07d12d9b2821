import { cp, mkdtemp, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { Log, Result } from 'sarif';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../run/run-report-types.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { FAULTS } from '../reference/faults.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { builtMain as main, failedRules, runInProcess, type InProcessRun } from './support/in-process.ts';
import { SKIP_UNPROBED } from './support/unprobed.ts';
import { targetEnv } from './support/target-env.ts';

/** Short runs: each shard starts its own embedded reference target. */
// The rules no probe judges yet are left out, so that a whole run is judged everywhere (the --require-judged case).
const SEED = ['--seed', '20261121', '--runs', '3', '--timeout-ms', '1500', ...SKIP_UNPROBED];
/** Two faults whose failures fall in different suites, hence in different shards. */
const FAULT_NAMES = ['auth-missing-accepted', 'alerts-list-includes-silenced'];
const FAULT_ARGS = FAULT_NAMES.flatMap((name) => ['--reference-fault', name]);

/** What a merge returned and printed, and the merged findings when it wrote them. */
interface MergeRun {
  readonly code: number;
  readonly output: string;
  readonly report?: RunReport;
  /** The merged results.sarif's results, as `ruleId | operation`. */
  readonly sarif?: readonly string[];
}

async function merge(dirs: readonly string[], flags: readonly string[] = []): Promise<MergeRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-merged-'));
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const code = await main(['merge', ...dirs, '--report-dir', reportDir, ...flags], {}, io);
  const findings = await readFile(join(reportDir, 'findings.json'), 'utf8').catch(() => undefined);
  const sarif = await readFile(join(reportDir, 'results.sarif'), 'utf8').catch(() => undefined);
  const sarifResults = (log: string): Result[] => (JSON.parse(log) as Log).runs[0]!.results!;
  const results = (log: string): string[] =>
    sarifResults(log)
      .map((r) => `${r.ruleId} | ${r.properties?.operation}`)
      .sort();
  return {
    code,
    output: lines.join('\n'),
    ...(findings ? { report: JSON.parse(findings) as RunReport } : {}),
    ...(sarif ? { sarif: results(sarif) } : {}),
  };
}

async function shards(
  args: readonly string[],
  count: number,
  env: Readonly<Record<string, string>> = {},
): Promise<InProcessRun[]> {
  const runs: InProcessRun[] = [];
  for (let index = 1; index <= count; index += 1)
    runs.push(await runInProcess([...args, '--shard', `${index}/${count}`], env));
  return runs;
}

/** Each (rule, operation, outcome) of a report, sorted. */
function verdicts(report: RunReport): string[] {
  return report.results.map((r) => `${r.rule} | ${r.operation} | ${r.outcome}`).sort();
}

/** A copy of a shard's report directory with its findings.json changed (and its part renamed, when given). */
async function altered(
  dir: string,
  change: (findings: Record<string, unknown>) => void,
  part?: readonly [string, string],
): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'conformance-altered-'));
  await cp(dir, copy, { recursive: true });
  const findings = JSON.parse(await readFile(join(copy, 'findings.json'), 'utf8')) as Record<string, unknown>;
  change(findings);
  await writeFile(join(copy, 'findings.json'), JSON.stringify(findings));
  if (part) await rename(join(copy, 'shard', part[0]), join(copy, 'shard', part[1]));
  return copy;
}

/** The merge's one error line, with the shard directories named by their shard. */
function problem(run: MergeRun, dirs: Readonly<Record<string, string>>): string {
  return Object.entries(dirs).reduce((text, [name, dir]) => text.split(dir).join(name), run.output);
}

describe('shards and merge', () => {
  let whole: InProcessRun;
  let parts: InProcessRun[];

  beforeAll(async () => {
    whole = await runInProcess(SEED);
    parts = await shards(SEED, 3);
  });

  it(
    'splits whole suites: every shard runs a part, each suite in one shard only, and the parts together run ' +
      'every verdict once',
    () => {
      expect(parts.map((p) => p.report.settings.shard)).toEqual(['1/3', '2/3', '3/3']);
      for (const part of parts) expect(part.report.results.length).toBeGreaterThan(0);
      expect(parts.flatMap((p) => verdicts(p.report)).sort()).toEqual(verdicts(whole.report));
      // Each operation belongs to one suite: a suite run whole by one shard shows as operations judged by one shard
      // only.
      const operationsOf = (report: RunReport): string[] => [...new Set(report.results.map((r) => r.operation))].sort();
      expect(parts.flatMap((p) => operationsOf(p.report)).sort()).toEqual(operationsOf(whole.report));
    },
  );

  it('writes its part of the run beside the findings', async () => {
    for (const [i, part] of parts.entries())
      expect(await readdir(join(part.reportDir, 'shard'))).toEqual([`shard-${i + 1}-3.json`]);
  });

  it(
    'merges three shards into the same verdicts, requests ' + 'and coverage as one unsharded run with the same seed',
    async () => {
      const merged = await merge(parts.map((p) => p.reportDir));
      expect(merged.code).toBe(0);
      const report = merged.report!;
      expect(report.errors).toEqual([]);
      expect(report.outcome).toBe('passed');
      expect(report.seed).toBe(whole.report.seed);
      expect(verdicts(report)).toEqual(verdicts(whole.report));
      expect(report.stats.requests).toBe(whole.report.stats.requests);
      expect(Object.keys(report.stats.operations).sort()).toEqual(Object.keys(whole.report.stats.operations).sort());
      expect(report.created.length).toBe(whole.report.created.length);
      expect(report.settings).toMatchObject({ shard: null, shards: 3, runs: 3 });
      expect(report.replay).toBe(whole.report.replay);
      expect(merged.output).toMatch(/^PASSED: 0 failed, \d+ passed/m);
    },
  );

  it('fails the same rules and operations sharded and merged as unsharded, under faults', async () => {
    const faulty = await runInProcess([...SEED, ...FAULT_ARGS]);
    const merged = await merge((await shards([...SEED, ...FAULT_ARGS], 3)).map((p) => p.reportDir));
    expect(merged.code).toBe(1);
    expect(merged.report!.errors).toEqual([]);
    expect(verdicts(merged.report!)).toEqual(verdicts(faulty.report));
    const declared = FAULTS.filter((f) => FAULT_NAMES.includes(f.name)).flatMap((f) => f.breaks);
    expect(failedRules(merged.report!)).toEqual([...new Set(declared)].sort());
    const failed = merged.report!.results.filter((r) => r.outcome === 'failed');
    expect(merged.sarif).toEqual(failed.map((r) => `${r.rule} | ${r.operation}`).sort());
  });

  it(
    'with --require-judged, fails the merged run (exit 1, the gate said) when a shard could not judge a ' +
      'selected rule, as a run would',
    async () => {
      const cut = await shards([...SEED, '--max-requests', '40'], 3);
      const dirs = cut.map((p) => p.reportDir);
      expect(cut.map((p) => p.code)).toEqual([0, 0, 0]);
      const lenient = await merge(dirs);
      expect(lenient.code).toBe(0);
      expect(lenient.report!.stats.failed).toBe(0);
      expect(lenient.report!.stats.notJudged).toBeGreaterThan(0);
      expect(lenient.report!.gate).toBeUndefined();

      const strict = await merge(dirs, ['--require-judged']);
      expect(strict.code).toBe(1);
      expect(strict.report!.outcome).toBe('failed');
      expect(strict.report!.stats.notJudged).toBe(lenient.report!.stats.notJudged);
      expect(strict.report!.gate).toMatch(
        /^--require-judged: \d+ selected rule × operation verdict\(s\) could not be judged/,
      );
      expect(strict.output).toContain('! --require-judged:');

      // Judged everywhere, the flag changes nothing.
      const whole = await merge(
        parts.map((p) => p.reportDir),
        ['--require-judged'],
      );
      expect(whole.code).toBe(0);
      expect(whole.report!.gate).toBeUndefined();
    },
  );

  it(
    'refuses, with exit code 2 and the problem named, ' + 'shards that are missing, repeated, or not of one run',
    async () => {
      const [one, two, three] = parts.map((p) => p.reportDir) as [string, string, string];
      const otherSeed = await altered(three, (f) => {
        f.seed = 1;
      });
      const otherTarget = await altered(three, (f) => {
        f.target = { reference: { faults: ['auth-any-secret'], modes: [] } };
      });
      const otherSplit = await altered(
        three,
        (f) => {
          (f.settings as Record<string, unknown>).shard = '3/4';
        },
        ['shard-3-3.json', 'shard-3-4.json'],
      );
      const noPart = await altered(three, () => undefined, ['shard-3-3.json', 'other.json']);
      const otherVersion = await altered(three, (f) => {
        f.toolVersion = '0.0.1';
      });
      const dirs = {
        NO_PART: noPart,
        OTHER_VERSION: otherVersion,
        ONE: one,
        TWO: two,
        THREE: three,
        OTHER_SEED: otherSeed,
        OTHER_TARGET: otherTarget,
        OTHER_SPLIT: otherSplit,
        WHOLE: whole.reportDir,
      };
      const cases: [string[], string][] = [
        [
          [one, two],
          'conformance: cannot merge: shard 3/3 is missing (given: ONE (shard 1/3), TWO (shard 2/3)); give ' +
            'the report directories of all 3 shards. [FINDINGS_INVALID]',
        ],
        [[one, two, two, three], 'conformance: cannot merge: shard 2/3 is given 2 times: TWO, TWO. [FINDINGS_INVALID]'],
        [
          [one, two, otherSeed],
          'conformance: cannot merge: the shards come from different seeds: 20261121 in ONE, 1 in ' +
            'OTHER_SEED; run every shard with the same --seed. [FINDINGS_INVALID]',
        ],
        [
          [one, two, otherTarget],
          'conformance: cannot merge: the shards ran against different targets: ' +
            '{"reference":{"faults":[],"modes":[]}} in ONE, ' +
            '{"reference":{"faults":["auth-any-secret"],"modes":[]}} in OTHER_TARGET. [FINDINGS_INVALID]',
        ],
        [
          [one, two, otherSplit],
          'conformance: cannot merge: the shards split the run differently: ONE (shard 1/3) and OTHER_SPLIT ' +
            '(shard 3/4); run every shard with the same n in --shard i/n. [FINDINGS_INVALID]',
        ],
        [
          [one, two, noPart],
          "conformance: NO_PART is not a shard's report directory: the shard's part of the run, " +
            'NO_PART/shard/shard-3-3.json, is missing. Give the --report-dir of each `conformance --shard i/n` ' +
            'run. [FINDINGS_INVALID]',
        ],
        [
          [one, two, otherVersion],
          "conformance: OTHER_VERSION is not a shard's report directory: OTHER_VERSION/findings.json was written by " +
            `conformance 0.0.1, and this is ${TOOL_VERSION}: merge with the version that ran the shards. Give the ` +
            '--report-dir of each `conformance --shard i/n` run. [FINDINGS_INVALID]',
        ],
        [
          [whole.reportDir],
          "conformance: WHOLE is not a shard's report directory: WHOLE/findings.json is from a run without " +
            '--shard. Give the --report-dir of each `conformance --shard i/n` run. [FINDINGS_INVALID]',
        ],
        [
          [],
          'conformance: merge needs the report directories of the shards: `conformance merge DIR... ' +
            '[--report-dir OUT]`. [CONFIG_INVALID]',
        ],
      ];
      for (const [given, message] of cases) {
        const run = await merge(given);
        expect(run.code).toBe(2);
        expect(run.report).toBeUndefined();
        expect(problem(run, dirs)).toBe(message);
      }
    },
  );

  describe('against a separately started target', () => {
    let target: ReferenceTarget;
    beforeAll(async () => {
      target = await startReference();
    });
    afterAll(async () => {
      await target.close();
    });

    it('leaves no secret in anything a shard writes, its part of the run included', async () => {
      const env = {
        ...targetEnv(target),
      };
      const [part] = await shards(SEED, 1, env);
      const files = [...(await readdir(part!.reportDir)).filter((f) => f !== 'shard'), 'shard/shard-1-1.json'];
      for (const file of files) {
        const text = await readFile(join(part!.reportDir, file), 'utf8');
        expect(text).not.toContain(target.managementKeySecret);
        expect(text).not.toContain(target.alertsToken);
      }
    });
  });
});
