import type { RunConfig } from '../../core/config.ts';
import type { RuleResult } from '../../core/finding.ts';
import type { SuiteReport } from '../../core/run-report.ts';

/** What the conformance command hands to the suites through vitest's `provide`. */
export interface ProvidedRun {
  readonly config: RunConfig;
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
