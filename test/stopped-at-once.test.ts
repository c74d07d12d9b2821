import type { Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../core/finding.ts';
import type { CreatedResource } from '../core/run-report.ts';
import { STOPPED_BEFORE_ANY_VERDICT } from '../cli/interrupts.ts';
import { collectedSoFar } from '../cli/suites-run.ts';

const pipe: CreatedResource = { kind: 'created', id: 'p1', operation: 'createPipe', note: 'a pipe' };
const created = new Map([['pipes', [pipe]]]);

/** vitest's test tree as a hard stop reads it: one suite file whose tests have the results given (none: pending). */
function vitestWith(tests: ReadonlyArray<RuleResult | undefined>): Vitest {
  const module = {
    children: {
      allSuites: () => [],
      allTests: () => tests.map((result) => ({ meta: () => (result ? { conformanceResult: result } : {}) })),
    },
  };
  return { state: { getTestModules: () => (tests.length === 0 ? [] : [module]) } } as unknown as Vitest;
}

const verdict = { rule: 'envelope.shape', operation: 'listPipes', outcome: 'passed' } as unknown as RuleResult;

describe('what a run stopped at once has produced', () => {
  it('before vitest has started: what the worker created, and that no verdict was reached (an error)', () => {
    const collected = collectedSoFar(undefined, created);
    expect(collected.results).toEqual([]);
    expect(collected.suites.map((suite) => [suite.suite, suite.created])).toEqual([['pipes', [pipe]]]);
    expect(collected.errors).toEqual([STOPPED_BEFORE_ANY_VERDICT]);
  });

  it('before vitest has declared the tests: the same, not a run with nothing pending', () => {
    expect(collectedSoFar(vitestWith([]), created).errors).toEqual([STOPPED_BEFORE_ANY_VERDICT]);
  });

  it('once declared: the verdicts reached, and the count of those that were not', () => {
    const collected = collectedSoFar(vitestWith([verdict, undefined, undefined]), created);
    expect(collected.results).toEqual([verdict]);
    expect(collected.errors).toEqual(['the run was stopped at once: 2 verdict(s) were not reached']);
  });
});
