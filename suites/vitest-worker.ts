import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { init, runBaseTests, setupEnvironment } from 'vitest/worker';
import type { PrepareAnswer } from '../cli/early-worker.ts';
import type { RunConfig } from '../core/config.ts';
import type { Specs } from '../core/spec.ts';
import type { Plan } from './support/plan.ts';
import { isHarnessError } from '../core/errors.ts';

// The thread vitest runs the suites in, from the build (cli/early-worker.ts): vitest's own thread worker, built from
// vitest's worker API, which the command spawns as it starts, before vitest itself has loaded. While the main thread
// loads vitest and vite, this thread loads vitest's runtime and, given `preload`, the harness's bundled worker side
// (suites/bundle-entry.ts), so that when vitest hands it the suite file, the modules that file imports are already
// loaded; given `plans`, it answers there with the run's plan for the settings it is sent, and for a configured target
// with the preflight's report (cli/early-worker.ts `prepare`).
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

const { preload, plans } = (workerData ?? {}) as { preload?: string; plans?: MessagePort };
type Harness = typeof import('./bundle-entry.ts');
const harness = preload ? (import(preload) as Promise<Harness>) : undefined;
// A failure here is not lost: the suite file imports the same module, and vitest reports it as that file's.
harness?.catch(() => undefined);

plans?.on('message', (config: RunConfig) => {
  void prepared(config).then((answer) => plans.postMessage(answer));
});
// vitest ends this thread when its run is done; the port must not be what keeps it alive.
plans?.unref();

/** The plan, or why there is none (the command then plans itself); for a configured target, the preflight's report or the error that stops the run. */
async function prepared(config: RunConfig): Promise<PrepareAnswer> {
  let loaded: Harness;
  let specs: Specs;
  let plan: Plan;
  try {
    if (!harness) throw new Error('the worker thread was started without the harness bundle to plan with');
    loaded = await harness;
    specs = await loaded.loadShippedSpecs();
    plan = loaded.runPlan(config, specs);
  } catch (error) {
    return { error: messageOf(error) };
  }
  if (config.reference) return { plan };
  try {
    return { plan, preflight: { report: await loaded.preflight(loaded.withRuns(config, plan.runs), specs) } };
  } catch (error) {
    return { plan, preflight: { failed: { message: messageOf(error), ...(isHarnessError(error) ? { code: error.code } : {}) } } };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
