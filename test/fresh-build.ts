import { buildWhenStale } from '../build/build-when-stale.js';

/** What `npm run build` reads (`build/build-when-stale.js`, which `prepare` runs too). */
export { INPUTS } from '../build/build-when-stale.js';

/**
 * vitest's global setup: the tests that run the command (test/support/cli.ts, in-process.ts) run the build in dist/,
 * which `npm ci` has just made; where a source is newer than the build (an edit since), it builds again first, so
 * that tests always see the code as edited.
 */
export default function freshBuild(): void {
  buildWhenStale();
}
