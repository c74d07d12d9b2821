/** The suite file vitest runs from the build (build/suite-bundle.ts writes it), which loads the harness bundled. */
export const BUNDLED_SUITE_FILE = 'conformance.bundled.suite.js';
