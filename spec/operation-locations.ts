import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import { type ApiName, SPEC_FILES } from './spec.ts';

/** Where an operation is written in its spec file: the file, and the 1-based line and column of its method key. */
export interface SourceLocation {
  /** The spec file, relative to the folder it was located from (`/`-separated), or absolute when outside it. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

const METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Where each operation (`METHOD /path`) is written in its API's spec file: the method key's line and column. */
export type SpecLines = Readonly<Record<ApiName, Readonly<Record<string, { line: number; column: number }>>>>;

/**
 * Finds every operation of the shipped specs in its YAML (`METHOD /path` key → the method's key under the path), with
 * file paths relative to `from` (the checkout a CI job runs in), so that a report can point at the contract. `lines`
 * are the build's (see `prepared-specs.ts`); without them the YAML is parsed here.
 */
export async function operationLocations(
  from: string,
  lines?: SpecLines,
): Promise<ReadonlyMap<string, SourceLocation>> {
  const found = lines ?? (await specLines());
  return new Map(
    (Object.keys(SPEC_FILES) as ApiName[]).flatMap((api) => {
      const file = shownPath(SPEC_FILES[api], from);
      return Object.entries(found[api] ?? {}).map(([key, at]) => [key, { file, ...at }] as const);
    }),
  );
}

/**
 * The environment variable by which the GitHub Action hands the run the user's copies of the specs (its
 * `management-spec` and `alerts-spec` inputs), one path a line, relative to the checkout.
 */
export const SPEC_COPIES_VARIABLE = 'CONFORMANCE_SPEC_COPIES';

/** The spec copies named in an environment (`SPEC_COPIES_VARIABLE`), trimmed, empty lines left out. */
export function specCopiesIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return (env[SPEC_COPIES_VARIABLE] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/**
 * Where each operation is written in the user's copies of the specs (`copies`: paths in the checkout `from`), as
 * `/`-separated paths relative to it; the first copy that holds an operation wins. A copy outside the checkout or
 * unreadable is a CONFIG_INVALID error naming it.
 */
export async function copyLocations(
  copies: readonly string[],
  from: string,
): Promise<ReadonlyMap<string, SourceLocation>> {
  const located = new Map<string, SourceLocation>();
  for (const copy of copies) {
    const inside = relative(from, resolve(from, copy));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
      throw new HarnessError(
        'CONFIG_INVALID',
        `the spec copy ${JSON.stringify(copy)} is not in the checkout: give the path of a file in the repository.`,
      );
    const lines = await linesIn(resolve(from, inside)).catch((error: NodeJS.ErrnoException) => {
      throw new HarnessError('CONFIG_INVALID', `the spec copy ${JSON.stringify(copy)}: ${error.message}`, {
        cause: error,
      });
    });
    const file = inside.split(sep).join('/');
    for (const [operation, at] of Object.entries(lines))
      if (!located.has(operation)) located.set(operation, { file, ...at });
  }
  return located;
}

/**
 * Where reports locate each operation: in the user's copy of its spec when `copies` hold it, else in the shipped
 * spec (an absolute path, which no report shows, when that is outside the checkout `from`).
 */
export async function reportLocations(
  copies: readonly string[],
  from: string,
  lines?: SpecLines,
): Promise<ReadonlyMap<string, SourceLocation>> {
  const [shipped, copied] = await Promise.all([operationLocations(from, lines), copyLocations(copies, from)]);
  return new Map([...shipped, ...copied]);
}

/** Parses each shipped spec file for the lines of its operations (the YAML parser is loaded only then). */
export async function specLines(): Promise<SpecLines> {
  const apis = Object.keys(SPEC_FILES) as ApiName[];
  const found = await Promise.all(apis.map((api) => linesIn(SPEC_FILES[api])));
  return Object.fromEntries(apis.map((api, i) => [api, found[i]!])) as SpecLines;
}

/** Where each operation (`METHOD /path`) is written in an OpenAPI document in YAML (a copy of a spec, say). */
export async function linesIn(specFile: string): Promise<Record<string, { line: number; column: number }>> {
  const { isMap, isScalar, LineCounter, parseDocument } = await import('yaml');
  const lines = new LineCounter();
  const doc = parseDocument(await readFile(specFile, 'utf8'), { lineCounter: lines });
  const paths = doc.get('paths');
  if (!isMap(paths)) return {};
  const found: Record<string, { line: number; column: number }> = {};
  for (const pathItem of paths.items) {
    if (!isScalar(pathItem.key) || !isMap(pathItem.value)) continue;
    const path = String(pathItem.key.value);
    for (const entry of pathItem.value.items) {
      const method = isScalar(entry.key) ? String(entry.key.value) : '';
      if (!METHODS.has(method) || !isScalar(entry.key) || !entry.key.range) continue;
      const { line, col } = lines.linePos(entry.key.range[0]);
      found[`${method.toUpperCase()} ${path}`] = { line, column: col };
    }
  }
  return found;
}

/** The file relative to `from`, or absolute when outside it or in an installed package (no file of the checkout's). */
function shownPath(file: string, from: string): string {
  const inside = relative(from, file);
  const parts = inside.split(sep);
  return inside.startsWith('..') || isAbsolute(inside) || parts.includes('node_modules') ? file : parts.join('/');
}
