import type { RunConfig } from '../../core/config.ts';
import type { RuleResult } from '../../core/finding.ts';
import type { SuiteReport } from '../../core/run-report.ts';
import type { Specs } from '../../core/spec.ts';
import { openRunChannel } from '../../core/run-channel.ts';
import type { DeferredRun } from './conformance-suite.ts';

/**
 * What the conformance command hands to the suites through vitest's `provide` as vitest starts: the settings as resolved
 * (before the plan and the target) and both specs, loaded once by the command (so that the worker needs no spec parser).
 * The rest (`HandedRun`: the plan, the target, the preflight) comes over the run's channel while the worker starts.
 */
export interface ProvidedRun {
  readonly config: RunConfig;
  readonly specs: Specs;
}

/** The command's run as the suite file sees it: its tests declared from what was provided, its groups held until the command hands the run over. */
export function providedRun(provided: ProvidedRun): DeferredRun {
  return {
    ...provided,
    async prepare() {
      const channel = openRunChannel(provided.config);
      try {
        return { specs: provided.specs, ...(await channel.awaitRun()) };
      } finally {
        channel.close();
      }
    },
  };
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
