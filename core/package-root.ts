import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Compiled modules run from `dist/`, one folder deeper than their TypeScript source. */
const COMPILED = import.meta.url.endsWith('.js');

/** The package's root folder (where `package.json`, `openapi/` and `schemas/` are), from the source or from `dist/`. */
export const PACKAGE_ROOT = fileURLToPath(new URL(COMPILED ? '../../' : '../', import.meta.url));

/** The version of this package, from its `package.json`. */
export const TOOL_VERSION: string = (
  JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as { version: string }
).version;
