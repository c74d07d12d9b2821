import { parentPort, workerData } from 'node:worker_threads';
import type { RunLink } from '../core/run-channel.ts';

// The thread vitest runs the suites in, from the build (cli/early-worker.ts): vitest's own thread worker, built from
// vitest's worker API, which the command spawns as it starts, before vitest itself has loaded. Given `preload`, it
// loads the harness's bundled worker side (suites/bundle-entry.ts) first and, given `run`, the settings the command
// pushed, prepares and starts the run there (engine/command-run.ts); only then does it load vitest's runtime (about
// 0.1 s), which so runs beside the preflight and the first requests instead of before them. The suite file vitest hands
// it later imports modules already loaded and finds the run under way. Nothing vitest sends is lost meanwhile: a port
// keeps its messages until a listener is added.
const port = parentPort;
if (!port) throw new Error('suites/vitest-worker.js runs as a worker thread, spawned by the conformance command');

const { preload, run } = (workerData ?? {}) as { preload?: string; run?: RunLink };
type Harness = typeof import('./bundle-entry.ts');
const harness = preload ? (import(preload) as Promise<Harness>) : undefined;
// A failure is not lost: the command hears it over the run's channel, and the suite file, which imports the same
// module, fails with it.
if (run) void harness?.then((loaded) => loaded.commandRun(run)).catch(() => undefined);
await harness?.catch(() => undefined);

const { init, runBaseTests, setupEnvironment } = await import('vitest/worker');
init({
  post: (response) => port.postMessage(response),
  on: (callback) => port.on('message', callback),
  off: (callback) => port.off('message', callback),
  teardown: () => port.removeAllListeners('message'),
  runTests: (state, traces) => runBaseTests('run', state, traces),
  collectTests: (state, traces) => runBaseTests('collect', state, traces),
  setup: setupEnvironment,
});
