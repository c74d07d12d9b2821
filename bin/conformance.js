#!/usr/bin/env node
import { register } from 'tsx/esm/api';

// A reader that stops early (`conformance rules | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
