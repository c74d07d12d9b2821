import { parentPort, workerData } from 'node:worker_threads';
import type { RunLink } from '../core/run-channel.ts';

// The thread vitest runs the suites in, from the build (cli/early-worker.ts): vitest's own thread worker, built from
// vitest's worker API, which the command spawns as it starts, before it has resolved its settings or loaded vitest.
// Given `preload`, it loads the harness's bundled worker side (suites/bundle-entry.ts) at once, and the command hands
// it the run's settings, settled, as the first message of its port; with both, it prepares and starts the run there
// (engine/command-run.ts). vitest's runtime (about 0.1 s) loads once the harness has, while the settings are still to
// come or beside the preflight and the first requests, never before them. The suite file vitest hands it later
// imports modules already loaded and finds the run under way. Nothing vitest sends is lost meanwhile: a port keeps its
// messages until a listener is added, and vitest's come after the settings.
const port = parentPort;
if (!port) throw new Error('suites/vitest-worker.js runs as a worker thread, spawned by the conformance command');

const { preload } = (workerData ?? {}) as { preload?: string };
type Harness = typeof import('./bundle-entry.ts');
const harness = preload ? (import(preload) as Promise<Harness>) : undefined;
const run = preload
  ? new Promise<RunLink>((resolve) => port.once('message', (message: { run: RunLink }) => resolve(message.run)))
  : undefined;
// A failure is not lost: the command hears it over the run's channel, and the suite file, which imports the same
// module, fails with it.
if (harness && run)
  void Promise.all([harness, run])
    .then(([loaded, link]) => loaded.commandRun(link))
    .catch(() => undefined);
await harness?.catch(() => undefined);
// vitest's runtime loads while the settings are still to come, or beside the preflight; its listener waits for them.
const runtime = import('vitest/worker');
await run;
const { init, runBaseTests, setupEnvironment } = await runtime;
init({
  post: (response) => port.postMessage(response),
  on: (callback) => port.on('message', callback),
  off: (callback) => port.off('message', callback),
  teardown: () => port.removeAllListeners('message'),
  runTests: (state, traces) => runBaseTests('run', state, traces),
  collectTests: (state, traces) => runBaseTests('collect', state, traces),
  setup: setupEnvironment,
});
