#!/usr/bin/env node
import module from 'node:module';

// From Node 22.1, Node keeps the compiled code of the modules a run loads between runs (about a tenth of a start's
// CPU): in NODE_COMPILE_CACHE, else in the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
// vitest's worker thread inherits it through the variable. Older Nodes have no such cache.
const cache = module.enableCompileCache?.();
if (cache?.directory) process.env.NODE_COMPILE_CACHE = cache.directory;
await import('../dist/cli/entry.js');
