import { fileURLToPath } from 'node:url';
import { runVitest } from '../cli/suites-run.ts';
import { cacheDirectory } from '../core/config.ts';

const DIR = fileURLToPath(new URL('./engine-floor', import.meta.url));

/**
 * The engine floor: the wall time of vitest running one trivial test with the same pool settings as a run
 * (one worker thread, no isolation). Every run pays at least this before and around its first request.
 */
export async function engineFloor(): Promise<number> {
  const started = performance.now();
  const failed = await runVitest(cacheDirectory(process.env), { dir: DIR, include: ['*.floor.ts'], reporters: [{}] });
  if (failed) throw new Error(`the engine floor's one trivial test did not pass (${DIR})`);
  return performance.now() - started;
}
