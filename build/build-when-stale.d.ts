/** What `npm run build` reads: the folders and files of tsconfig.build.json, the specs, schemas and configuration. */
export declare const INPUTS: readonly string[];
/** Whether dist/ is missing an output or older than a source. */
export declare function isStale(): boolean;
/** Builds dist/ (`npm run build`) when it is stale; says so on stderr. */
export declare function buildWhenStale(): void;
