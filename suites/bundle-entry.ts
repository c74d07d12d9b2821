// What vitest's worker thread loads of the harness: the build bundles it, with all it imports but packages, into
// dist/suites/bundle.js (build/suite-bundle.ts), which the suite file and the early worker (cli/early-worker.ts)
// import.
export { registerConformance } from './support/conformance-suite.ts';
export { commandRun } from '../engine/command-run.ts';
