/** The suite file vitest runs from the build (build/suite-bundle.ts writes it): it loads the harness's worker side as one bundled module. */
export const BUNDLED_SUITE_FILE = 'conformance.bundled.suite.js';
