import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { SPEC_FILES } from './spec.ts';

/** Where an operation is written in its spec file: the file, and the 1-based line and column of its method key. */
export interface SourceLocation {
  /** The spec file, relative to the folder it was located from (`/`-separated), or absolute when outside it. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

const METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Finds every operation of the shipped specs in its YAML (`METHOD /path` key → the method's key under the path),
 * with file paths relative to `from` (the checkout a CI job runs in), so that a report can point at the contract.
 */
export async function operationLocations(from: string): Promise<ReadonlyMap<string, SourceLocation>> {
  const located = await Promise.all(Object.values(SPEC_FILES).map((file) => locateIn(file, from)));
  return new Map(located.flat());
}

async function locateIn(specFile: string, from: string): Promise<(readonly [string, SourceLocation])[]> {
  const lines = new LineCounter();
  const doc = parseDocument(await readFile(specFile, 'utf8'), { lineCounter: lines });
  const paths = doc.get('paths');
  if (!isMap(paths)) return [];
  const file = shownPath(specFile, from);
  return paths.items.flatMap((pathItem) => {
    if (!isScalar(pathItem.key) || !isMap(pathItem.value)) return [];
    const path = String(pathItem.key.value);
    return pathItem.value.items.flatMap((entry) => {
      const method = isScalar(entry.key) ? String(entry.key.value) : '';
      if (!METHODS.has(method) || !isScalar(entry.key) || !entry.key.range) return [];
      const { line, col } = lines.linePos(entry.key.range[0]);
      return [[`${method.toUpperCase()} ${path}`, { file, line, column: col }] as const];
    });
  });
}

function shownPath(file: string, from: string): string {
  const inside = relative(from, file);
  return inside.startsWith('..') || isAbsolute(inside) ? file : inside.split(sep).join('/');
}
