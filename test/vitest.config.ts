import { defineConfig } from 'vitest/config';
import { HeavyFirst } from './support/heavy-first.ts';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/fresh-build.ts', 'test/temporary-folder.ts'],
    // The build the tests run (test/support/in-process.ts) loads with Node's own import, as a user's does.
    server: { deps: { external: [/\/dist\//] } },
    sequence: { sequencer: HeavyFirst },
    pool: 'forks',
    // A worker's files share its process: no test stubs modules, timers or the environment, and each file loading
    // vitest's runtime and the build again in a new process cost CI about a fifth of its CPU.
    isolate: false,
    // Three on two cores: the heavy files' runs keep both cores busy between them, and a third worker's file that
    // waits (test/support/heavy-first.ts) uses no core meanwhile; with two, such a file left one core idle.
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: 'reports/out/self-test-results.json' }]],
  },
});
