import { runCommandSuites } from '../engine/command-run.ts';
import type { RunLink } from '../run/run-channel.ts';
import { SUITES } from './index.ts';

// What the command's run thread loads of the harness (cli/run-worker.ts): the build bundles it, with all it imports
// but packages, into dist/suites/bundle.js (build/suite-bundle.ts). vitest is none of it: the command runs the engine
// itself, and only a team's own vitest project loads the suites' vitest adapter.

/** The command's run of these suites, prepared, sent and judged in the calling thread (`engine/command-run.ts`). */
export function commandRun(link: RunLink): Promise<void> {
  return runCommandSuites(link, SUITES);
}
