import { commandRun as prepareCommandRun } from '../engine/command-run.ts';
import type { RunLink } from '../core/run-channel.ts';
import type { SuitesSource } from '../engine/run-suites.ts';
import { SUITES } from './index.ts';

// What vitest's worker thread loads of the harness: the build bundles it, with all it imports but packages, into
// dist/suites/bundle.js (build/suite-bundle.ts), which the suite file and the early worker (cli/early-worker.ts)
// import.
export { registerConformance } from './conformance-suite.ts';

/** The command's run in vitest's worker thread, of these suites (`engine/command-run.ts`). */
export function commandRun(link: RunLink): Promise<SuitesSource> {
  return prepareCommandRun(link, SUITES);
}
