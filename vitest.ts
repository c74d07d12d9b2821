/**
 * The vitest entry of contract-conformance (`contract-conformance/vitest`): register the conformance suites in a test
 * file of your own vitest project, against your own target, reported by your own reporters.
 */
import { deferredRun } from './cli/deferred-run.ts';
import type { ConformanceSettings, ExactSettings } from './cli/run-conformance.ts';
import { registerConformance } from './suites/conformance-suite.ts';

export type { ConformanceSettings, ExactSettings } from './cli/run-conformance.ts';

/**
 * Loads the specs and declares, in the calling test file (`await` it at the top of the file), one describe per suite,
 * one per operation and one test per rule, and runs every probe group once before the first test; the settings are
 * those of `runConformance` (a mistake throws its HarnessError).
 */
export async function conformanceSuites<const S extends ConformanceSettings>(
  settings: ExactSettings<S> = {} as ExactSettings<S>,
): Promise<void> {
  registerConformance(await deferredRun(settings));
}
