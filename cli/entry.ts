import { limitHeapGrowth } from './heap-limits.ts';
import { main } from './main.ts';

// The body of the `conformance` executable (bin/conformance.js runs its compiled form from dist/).
// A reader that stops early (`conformance rules | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await main(process.argv.slice(2), process.env, undefined, {
  beforeRun: (config) => limitHeapGrowth(config.runs),
});
