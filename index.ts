/**
 * The library entry of contract-conformance: run the harness from code, start the embedded reference target,
 * read the rule table. The `conformance` command is the same harness behind flags.
 */

/** Runs the harness from code with the command's settings as an object; see ConformanceSettings. */
export {
  runConformance,
  type ConformanceOutput,
  type ConformanceRun,
  type ConformanceSettings,
  type ExactSettings,
} from './cli/run-conformance.ts';
/**
 * Starts the embedded reference target (both APIs in memory on loopback), optionally with named faults or modes; its
 * `settings` point `runConformance` at it.
 */
export { startReference, type LibraryReferenceTarget } from './cli/library-reference.ts';
export type { ReferenceOptions, ReferenceTarget } from './reference/server.ts';
/** The rule table: every rule's id, title, basis, contract sentence, operations and pure check. */
export { RULES } from './rules/index.ts';
/**
 * Which operations of the loaded specs a rule concerns (its `operations` may be a selector, such as every operation),
 * and the specs' loader.
 */
export { concerns, operationsOf } from './rule-model/rule.ts';
export { loadSpecs } from './spec/spec.ts';
/** The harness's own errors (exit code 2 on the command line), each with a stable code. */
export { HarnessError, isHarnessError, type HarnessErrorCode } from './core/errors.ts';
/** The version of this package. */
export { TOOL_VERSION } from './core/package-root.ts';
/** The types of a run's settings, of the rule table and of the run report (findings.json holds the report). */
export type { Shard } from './settings/config.ts';
export type { ProbeClass } from './core/probe-types.ts';
export type { Basis, OperationSelector, Rule, Violation } from './rule-model/rule.ts';
export type { Operation, Specs } from './spec/spec.ts';
export type { Finding, Outcome, Reproduction, RuleResult } from './evidence/finding.ts';
export type { CreatedResource, RunOutcome, RunReport } from './run/run-report-types.ts';
export type { BaselineSummary, BaselinedRunReport } from './reports/baseline-comparison.ts';
