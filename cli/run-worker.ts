import { parentPort, workerData } from 'node:worker_threads';
import type { RunLink } from '../run/run-channel.ts';

// The command's run thread, from the build (cli/early-worker.ts): spawned as the command starts, before it has resolved
// its settings, it loads the harness's bundle (`preload`: dist/suites/bundle.js, suites/bundle-entry.ts) at once; the
// command hands it the run's settings, settled, as the first message of its port; with both, it prepares, sends and
// judges the run (engine/command-run.ts), telling the command on the run's channel. A port keeps its messages until a
// listener is added, so settings pushed before the harness has loaded wait for it.
const port = parentPort;
if (!port) throw new Error('cli/run-worker.js runs as a worker thread, spawned by the conformance command');

const { preload } = workerData as { preload: string };
const harness = import(preload) as Promise<typeof import('../suites/bundle-entry.ts')>;
const link = await new Promise<RunLink>((resolve) =>
  port.once('message', (message: { run: RunLink }) => resolve(message.run)),
);
await (await harness).commandRun(link);
// The thread stays until the command ends it, so that its last events are heard before it ends (a listened port
// keeps it).
port.on('message', () => undefined);
