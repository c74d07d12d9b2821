import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../evidence/finding.ts';
import type { CreatedResource, JudgedSuite } from '../run/run-report-types.ts';
import { STOPPED_BEFORE_ANY_VERDICT } from '../cli/interrupts.ts';
import { collectedSoFar } from '../cli/suites-run.ts';

const pipe: CreatedResource = { kind: 'created', id: 'p1', operation: 'createPipe', note: 'a pipe' };
const key: CreatedResource = { kind: 'created', id: 'k1', operation: 'createKey', note: 'a key' };
const created = new Map([
  ['pipes', [pipe]],
  ['keys', [key]],
]);

const verdict = { rule: 'envelope.shape', operation: 'listPipes', outcome: 'passed' } as unknown as RuleResult;
/** The keys suite, judged: one verdict, and its report (which lists what it created). */
const keys: JudgedSuite = {
  report: { suite: 'keys', coverage: {}, created: [key], requests: 3, rateLimited: 0, skippedGroups: [] },
  results: [verdict],
  errors: [],
};

describe('what a run stopped at once has produced', () => {
  it('before it was prepared: what the run thread created, and that no verdict was reached (an error)', () => {
    const collected = collectedSoFar([], created, undefined);
    expect(collected.results).toEqual([]);
    expect(collected.suites.map((suite) => [suite.suite, suite.created])).toEqual([
      ['pipes', [pipe]],
      ['keys', [key]],
    ]);
    expect(collected.errors).toEqual([STOPPED_BEFORE_ANY_VERDICT]);
  });

  it('before any suite was judged: the same, though the verdicts to come are known', () => {
    expect(collectedSoFar([], created, 3).errors).toEqual([STOPPED_BEFORE_ANY_VERDICT]);
  });

  it('once a suite is judged: its verdicts and report, the others created, and the verdicts not reached', () => {
    const collected = collectedSoFar([keys], created, 3);
    expect(collected.results).toEqual([verdict]);
    expect(collected.suites.map((suite) => [suite.suite, suite.created, suite.requests])).toEqual([
      ['keys', [key], 3],
      ['pipes', [pipe], 0],
    ]);
    expect(collected.errors).toEqual(['the run was stopped at once: 2 verdict(s) were not reached']);
  });
});
