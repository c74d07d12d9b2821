import type { RunConfig } from '../../core/config.ts';
import type { RuleResult } from '../../core/finding.ts';
import type { SuiteReport } from '../../core/run-report.ts';
import type { Specs } from '../../core/spec.ts';
import type { KnownFailures } from '../../core/known-failures.ts';

/** What the conformance command hands to the suites through vitest's `provide`. */
export interface ProvidedRun {
  readonly config: RunConfig;
  /** Both specs, loaded once by the command (so that the worker needs no spec parser). */
  readonly specs: Specs;
  /** With `--baseline`: the failures it accepts (unexpired entries), which the tests report as skipped. */
  readonly knownFailures?: KnownFailures;
  /** The GET requests the preflight sent before the run: `--max-requests` counts them too. */
  readonly preflightRequests?: number;
  /** Requests the plan sends: with `--max-requests`, shrinking spends only what the plan leaves. */
  readonly plannedRequests?: number;
}

declare module 'vitest' {
  interface ProvidedContext {
    conformance: ProvidedRun;
  }
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformanceResult?: RuleResult;
    conformanceSuite?: SuiteReport;
  }
}
