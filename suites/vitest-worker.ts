import { parentPort, workerData } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';

// The thread vitest runs the suites in, from the build (cli/early-worker.ts): vitest's own thread worker, built from
// vitest's worker API, which the command spawns as it starts, before vitest itself has loaded. While the main thread
// loads vitest and vite, this thread loads vitest's runtime and, given `preload`, the harness's bundled worker side, so
// that when vitest hands it the suite file, the modules that file imports are already loaded.
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

const { preload } = (workerData ?? {}) as { preload?: string };
// A failure here is not lost: the suite file imports the same module, and vitest reports the failure as that file's.
if (preload) import(preload).catch(() => undefined);
