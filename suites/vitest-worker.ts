import { parentPort, workerData } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';
import type { RunLink } from '../core/run-channel.ts';

// The thread vitest runs the suites in, from the build (cli/early-worker.ts): vitest's own thread worker, built from
// vitest's worker API, which the command spawns as it starts, before vitest itself has loaded. While the main thread
// loads vitest and vite, this thread loads vitest's runtime and, given `preload`, the harness's bundled worker side
// (suites/bundle-entry.ts), so that when vitest hands it the suite file, the modules that file imports are already
// loaded; given `run`, the settings the command pushed, it prepares the run there (engine/command-run.ts).
const port = parentPort;
if (!port) throw new Error('suites/vitest-worker.js runs as a worker thread, spawned by the conformance command');

init({
  post: (response) => port.postMessage(response),
  on: (callback) => port.on('message', callback),
  off: (callback) => port.off('message', callback),
  teardown: () => port.removeAllListeners('message'),
  runTests: (state, traces) => runBaseTests('run', state, traces),
  collectTests: (state, traces) => runBaseTests('collect', state, traces),
  setup: setupEnvironment,
});

const { preload, run } = (workerData ?? {}) as { preload?: string; run?: RunLink };
type Harness = typeof import('./bundle-entry.ts');
const harness = preload ? (import(preload) as Promise<Harness>) : undefined;
// As soon as the harness is loaded, this thread prepares the run (the plan, the preflight), which the suite file then
// finds prepared. A failure is not lost: the command hears it over the run's channel, and the suite file, which imports
// the same module, fails with it.
if (run) void harness?.then((loaded) => loaded.commandRun(run)).catch(() => undefined);
else harness?.catch(() => undefined);
