import { afterAll, beforeAll, describe, test } from 'vitest';
import type { RuleResult } from '../core/finding.ts';
import { concerns } from '../core/rule.ts';
import { operationById, type Specs } from '../core/spec.ts';
import type { SuiteReport } from '../core/run-report.ts';
import type { PreparedRun } from '../core/run.ts';
import { RULES } from '../rules/index.ts';
import {
  ruleVerdict,
  startGroups,
  suiteReport,
  suiteStates,
  type SuiteState,
  type SuitesSource,
} from '../engine/run-suites.ts';
import { SUITES } from './index.ts';
import type { RunLink } from '../core/run-channel.ts';

/**
 * The suites' one vitest adapter. Declares, in the calling test file, one describe per suite (of the shard's part,
 * with `--shard`), one per operation, and one test per rule; and in one `beforeAll` starts the run's groups
 * (`engine/run-suites.ts` `startGroups`: every selected group of those suites under one session, concurrently), unless
 * the command's run started them already (`source.started`).
 * Each suite's tests decide as soon as its own groups are through, so that the verdicts of a run stopped at once hold
 * every suite done.
 */
export function registerConformance(source: SuitesSource): void {
  const { started } = source;
  const states =
    started?.states ??
    suiteStates(
      SUITES.map((suite) => suite()),
      source.config.shard,
    );
  const timeout = source.config.budgetMs + 60_000;
  let run: PreparedRun | undefined;
  let close: (() => Promise<void>) | undefined;
  let finished: Promise<unknown> | undefined = started?.finished;

  beforeAll(async () => {
    const prepared = await source.prepare();
    run = prepared.run;
    close = prepared.close;
    // The groups go on while vitest reaches each suite's tests, which wait for their own suite; the pool closes after
    // the last group. The command's run started them as soon as it was prepared.
    if (!started) ({ finished } = await startGroups(source, run, states));
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

    for (const operationId of definition.operations) {
      const operation = operationById(specs, operationId);
      const rules = RULES.filter((rule) => concerns(rule, operation));
      describe(operationId, () => {
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

declare module 'vitest' {
  interface ProvidedContext {
    /** What the command gives its suite file: the run's settings, and its link back to the command. */
    conformance: RunLink;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformanceResult?: RuleResult;
    conformanceSuite?: SuiteReport;
  }
}
