import { asksForRun, EarlyWorker } from './early-worker.ts';
import { limitHeapGrowth } from './heap-limits.ts';

// The body of the `conformance` executable (bin/conformance.js runs its compiled form from dist/).
// A reader that stops early (`conformance rules | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
// A run's worker thread starts first, before the command's own modules load: it loads the harness on the other core
// while this thread resolves the settings, and takes them once they are settled (the first request leaves about 65 ms
// sooner).
const early = asksForRun(argv) ? EarlyWorker.spawn() : undefined;
const { main } = await import('./main.ts');
process.exitCode = await main(argv, process.env, undefined, {
  beforeRun: (config) => {
    // A long run's heap settings apply to threads started after them: the thread started before them is given up.
    if (limitHeapGrowth(config.runs)) void early?.dispose();
  },
  ...(early ? { early } : {}),
});
await early?.dispose();
