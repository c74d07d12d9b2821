#!/usr/bin/env node
// A development tool: it runs the TypeScript source through tsx (a devDependency), unlike bin/conformance.js.
import { register } from 'tsx/esm/api';

register();
const { runBench } = await import('../bench/main.ts');
process.exitCode = await runBench(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
