import { afterAll, beforeAll, describe, test } from 'vitest';
import type { RuleResult } from '../evidence/finding.ts';
import type { Specs } from '../spec/spec.ts';
import type { SuiteReport } from '../run/run-report-types.ts';
import type { PreparedRun } from '../run/run-settings.ts';
import {
  ruleVerdict,
  startGroups,
  suiteReport,
  suiteStates,
  type SuiteState,
  type SuitesSource,
} from '../engine/run-suites.ts';
import { suiteOperations } from '../engine/suite-verdicts.ts';
import { SUITES } from './index.ts';

/**
 * The suites' one vitest adapter, for a team's own vitest project (the command runs the engine without vitest:
 * engine/command-run.ts). Declares, in the calling test file, one describe per suite (of the shard's part, with
 * `shard`), one per operation, and one test per rule (`suiteOperations`, as the command judges them); and in one
 * `beforeAll` starts the run's groups (`engine/run-suites.ts` `startGroups`: every selected group of those suites under
 * one session, concurrently). Each suite's tests decide as soon as its own groups are through.
 */
export function registerConformance(source: SuitesSource): void {
  const states = suiteStates(
    SUITES.map((suite) => suite()),
    source.config.shard,
  );
  const timeout = source.config.budgetMs + 60_000;
  let run: PreparedRun | undefined;
  let close: (() => Promise<void>) | undefined;
  let finished: Promise<unknown> | undefined;

  beforeAll(async () => {
    const prepared = await source.prepare();
    run = prepared.run;
    close = prepared.close;
    // The groups go on while vitest reaches each suite's tests, which wait for their own suite; the pool closes after
    // the last group.
    ({ finished } = await startGroups(source, run, states));
  }, timeout);

  afterAll(async () => {
    try {
      await finished;
    } finally {
      await close?.();
    }
  }, timeout);

  for (const state of states) declareSuite(state, source.specs, () => run, timeout);
}

/**
 * One suite's tests: per operation, one test per rule that concerns it, each turning the ledger's tally into a verdict.
 */
function declareSuite(state: SuiteState, specs: Specs, settled: () => PreparedRun | undefined, timeout: number): void {
  const { definition } = state;
  describe(definition.name, () => {
    beforeAll(async () => {
      await state.done;
      if (state.failure !== undefined) throw state.failure;
    }, timeout);

    // vitest reads a hook's first parameter as fixtures, which it requires to be destructured.
    // biome-ignore lint/correctness/noEmptyPattern: vitest's fixtures parameter must be a destructuring pattern.
    afterAll(({}, suite) => {
      suite.meta.conformanceSuite = suiteReport(state);
    });

    for (const { operation, rules } of suiteOperations(specs, definition)) {
      describe(operation.operationId, () => {
        for (const rule of rules) {
          test(rule.id, async ({ task, skip, annotate }) => {
            const run = settled();
            if (!run) throw new Error('the run was not prepared: see the error of the beforeAll hook');
            const { key, result, known } = ruleVerdict(run, state, rule, operation);
            task.meta.conformanceResult = result;
            if (result.outcome === 'skipped') {
              await annotate(result.message, 'skip-reason');
              skip(result.message);
            }
            const reproduce = result.findings[0]?.reproduce;
            if (reproduce) await annotate(`${reproduce.curl}\n${reproduce.command}`, 'reproduce');
            if (result.outcome !== 'failed') return;
            if (known === undefined) throw new ContractViolation(`${rule.id} on ${key}: ${result.message}`);
            const message = `known failure, accepted by the baseline: ${known}. ${result.message}`;
            await annotate(message, 'skip-reason');
            skip(message);
          });
        }
      });
    }
  });
}

/** A rule failed on an operation: the test error that vitest's reporters show. */
class ContractViolation extends Error {
  override name = 'ContractViolation';
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformanceResult?: RuleResult;
    conformanceSuite?: SuiteReport;
  }
}
