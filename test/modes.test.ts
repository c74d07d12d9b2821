import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../run/run-report-types.ts';
import { RULE_IDS } from '../rules/index.ts';
import { MODES } from '../reference/modes.ts';
import { failedRules, runInProcess } from './support/in-process.ts';
import { judgedRules, UNPROBED } from './support/unprobed.ts';

describe('the clean reference target and its unusual-but-correct modes pass', () => {
  it('clean: exit 0, every rule a probe judges passes on at least one operation, nothing of it skipped', async () => {
    const run = await runInProcess(['--seed', '1']);
    expect(run.report.errors).toEqual([]);
    expect(failedRules(run.report)).toEqual([]);
    expect(run.code).toBe(0);
    const passed = new Set(run.report.results.filter((r) => r.outcome === 'passed').map((r) => r.rule));
    expect([...RULE_IDS].filter((id) => !passed.has(id) && !UNPROBED.has(id))).toEqual([]);
    expect(judgedRules(run.report.results).filter((r) => r.outcome === 'skipped')).toEqual([]);
    expect(run.output).toMatch(/PASSED: 0 failed/);
  });

  /**
   * Several seeds, not one: which probes a target accepts depends on what each seed draws. `npm run seeds` runs a
   * hundred.
   */
  const SEEDS = [7, 20261125];
  /** The modes' runs send and judge in this thread: one load of the harness for them all (runInProcess). */
  const runHere = (args: readonly string[]) => runInProcess(args, {}, { inThisThread: true });
  const FAST = ['--runs', '4'];
  const verdicts = (report: RunReport): Record<string, string> =>
    Object.fromEntries(report.results.map((r) => [`${r.rule} on ${r.operation}`, r.outcome]));
  const clean = new Map<number, Record<string, string>>();
  // A mode's seeds run at once, and so do the clean target's: each run waits part of its time.
  beforeAll(async () => {
    const runs = await Promise.all(SEEDS.map((seed) => runHere([...FAST, '--seed', String(seed)])));
    for (const [i, seed] of SEEDS.entries()) clean.set(seed, verdicts(runs[i]!.report));
  });

  for (const mode of MODES) {
    it(
      `${mode.name}: exit 0, and the same verdict for every rule and operation as the clean target, on ` +
        `seeds ${SEEDS.join(', ')}`,
      async () => {
        const runs = await Promise.all(
          SEEDS.map((seed) => runHere([...FAST, '--seed', String(seed), '--reference-mode', mode.name])),
        );
        for (const [i, seed] of SEEDS.entries()) {
          const run = runs[i]!;
          expect(run.report.errors).toEqual([]);
          expect(failedRules(run.report), `--seed ${seed}`).toEqual([]);
          expect(Object.keys(clean.get(seed)!).length).toBeGreaterThan(100);
          // What the mode says a harness cannot judge there is skipped (not judged), where the clean target passes it.
          const expected = { ...clean.get(seed)! };
          for (const { rule, on } of mode.notJudged ?? []) {
            const result = run.report.results.find((r) => r.rule === rule && r.operationId === on);
            expect(result?.skipKind, `${rule} on ${on}`).toBe('not-judged');
            expected[`${rule} on ${result!.operation}`] = 'skipped';
          }
          expect(verdicts(run.report), `--seed ${seed}`).toEqual(expected);
          // What the mode says a harness cannot send there is a group not run, with the reason.
          for (const { group, why } of mode.notRun ?? []) {
            const skipped = run.report.skippedGroups.find((skip) => skip.group === group);
            expect(skipped?.reason, `${group}, --seed ${seed}`).toContain(why);
          }
          expect(run.code).toBe(0);
        }
      },
    );
  }

  it(
    'strict-bodies with strict-bounds (no pipe without bounded values, and none without every field): the values ' +
      "come from the refusals' words, and every verdict is the clean target's but the one strict-bodies cannot judge",
    async () => {
      const modes = ['strict-bodies', 'strict-bounds'];
      const runs = await Promise.all(
        SEEDS.map((seed) =>
          runHere([...FAST, '--seed', String(seed), ...modes.flatMap((mode) => ['--reference-mode', mode])]),
        ),
      );
      const notJudged = MODES.find((mode) => mode.name === 'strict-bodies')!.notJudged ?? [];
      for (const [i, seed] of SEEDS.entries()) {
        const run = runs[i]!;
        expect(failedRules(run.report), `--seed ${seed}`).toEqual([]);
        expect(run.report.skippedGroups, `--seed ${seed}`).toEqual([]);
        const expected = { ...clean.get(seed)! };
        for (const { rule, on } of notJudged) {
          const result = run.report.results.find((r) => r.rule === rule && r.operationId === on);
          expected[`${rule} on ${result!.operation}`] = 'skipped';
        }
        expect(verdicts(run.report), `--seed ${seed}`).toEqual(expected);
        expect(run.code).toBe(0);
      }
    },
  );

  it(
    "first-bound-refused on seed 6, whose last learning body draws 0.25 GB of memory: that refusal's bound is tried " +
      "again, so every verdict is the clean target's (none left not judged for want of open values)",
    async () => {
      const [bounded, plain] = await Promise.all([
        runHere(['--seed', '6', '--reference-mode', 'first-bound-refused']),
        runHere(['--seed', '6']),
      ]);
      expect(failedRules(bounded.report)).toEqual([]);
      expect(verdicts(bounded.report)).toEqual(verdicts(plain.report));
      expect(bounded.code).toBe(0);
    },
  );

  it('every mode at once: exit 0', async () => {
    const run = await runHere([
      '--runs',
      '3',
      '--seed',
      '9',
      ...MODES.filter((m) => m.name !== 'slow').flatMap((m) => ['--reference-mode', m.name]),
    ]);
    expect(failedRules(run.report)).toEqual([]);
    expect(run.code).toBe(0);
  });
});
