import type { RuleResult } from '../evidence/finding.ts';
import { concerns, type Rule, type SelectedOperation } from '../rule-model/rule.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import type { JudgedSuite } from '../run/run-report-types.ts';
import type { PreparedRun } from '../run/run-settings.ts';
import { RULES } from '../rules/index.ts';
import { ruleVerdict, suiteReport, type SuiteState } from './run-suites.ts';
import type { SuiteDefinition } from './suite-types.ts';

/** A suite's verdicts, one per operation it covers and rule that concerns it: its operations, each with its rules. */
export function suiteOperations(
  specs: Specs,
  definition: SuiteDefinition,
): { readonly operation: SelectedOperation; readonly rules: readonly Rule[] }[] {
  return definition.operations.map((operationId) => {
    const operation = operationById(specs, operationId);
    return { operation, rules: RULES.filter((rule) => concerns(rule, operation)) };
  });
}

/** How many verdicts the suites reach: one per operation and rule that concerns it. */
export function verdictCount(specs: Specs, definitions: readonly SuiteDefinition[]): number {
  return definitions
    .flatMap((definition) => suiteOperations(specs, definition))
    .reduce((n, { rules }) => n + rules.length, 0);
}

/**
 * A suite whose groups are through, judged: each operation × rule's tally turned into a verdict (`ruleVerdict`), and
 * its report. A suite one of whose groups threw reaches no verdict, nor one whose judging threw (a defect of the
 * harness): its error, redacted, says so.
 */
export function judgeSuite(
  run: PreparedRun,
  specs: Specs,
  state: SuiteState,
  redact: (text: string) => string,
): JudgedSuite {
  const report = suiteReport(state);
  const unjudged = (error: unknown): JudgedSuite => ({
    report,
    results: [],
    errors: [
      redact(
        `${state.definition.name}: ${errorText(error)} (its ${verdictCount(specs, [state.definition])} ` +
          'verdict(s) were not reached)',
      ),
    ],
  });
  if (state.failure !== undefined) return unjudged(state.failure);
  try {
    const results: RuleResult[] = [];
    for (const { operation, rules } of suiteOperations(specs, state.definition))
      for (const rule of rules) results.push(ruleVerdict(run, state, rule, operation).result);
    return { report, results, errors: [] };
  } catch (error) {
    return unjudged(error);
  }
}

/** An error as a report shows it: its stack where it has one. */
function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
