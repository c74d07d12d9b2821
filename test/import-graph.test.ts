import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The rooms below the engine, one concept each (STYLE.md), lowest first: none knows vitest. */
const ROOMS = ['core', 'spec', 'settings', 'transport', 'secrets', 'rule-model', 'evidence', 'run'];

/** The harness's source folders, and the two entries at the root that may import any of them. */
const FOLDERS = ['apis', ...ROOMS, 'rules', 'generators', 'engine', 'suites', 'reports', 'cli', 'reference', 'build'];
const ROOT_ENTRIES = ['index.ts', 'vitest.ts'];

/**
 * What each folder may import besides itself: STYLE.md's layering, lowest first, each room only the rooms it builds on.
 * apis/ is plain data; core/ is the shared base (typed errors, JSON text, probe types); spec/ the specs and validators;
 * settings/ the one resolver; transport/ sends and records exchanges; secrets/ redacts them; rule-model/ is what a rule
 * is and how an exchange is judged; evidence/ findings, the ledger and examples; run/ the run's types and channel.
 * rules/ and generators/ build on the rooms; engine/ prepares and runs a run of the suite definitions it is given;
 * suites/ are those definitions and their vitest adapter; reports/ read the run report; cli/ is the command (and starts
 * the reference target); reference/ stands alone.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  apis: [],
  core: [],
  spec: ['core', 'apis'],
  settings: ['core', 'apis'],
  transport: ['settings', 'spec', 'core'],
  secrets: ['transport', 'settings', 'spec', 'core', 'apis'],
  'rule-model': ['secrets', 'transport', 'settings', 'spec'],
  evidence: ['rule-model', 'secrets', 'transport', 'settings', 'spec', 'core', 'apis'],
  run: ['evidence', 'settings', 'core', 'apis'],
  rules: [...ROOMS, 'apis'],
  generators: [...ROOMS, 'apis'],
  engine: ['generators', 'rules', ...ROOMS, 'apis'],
  suites: ['engine', 'generators', 'rules', ...ROOMS, 'apis'],
  reports: ['rules', ...ROOMS, 'apis'],
  cli: ['engine', 'suites', 'reports', 'reference', 'generators', 'rules', ...ROOMS, 'apis'],
  reference: [],
  build: ['engine', 'suites', 'reports', 'rules', ...ROOMS, 'apis'],
};

/** Packages that only the vitest glue may import: the rooms below the engine know nothing of vitest. */
const VITEST = /^(vitest|@vitest\/)/;

interface Import {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import of every source file (static, type-only and `import()`), the harness's resolved to its path. */
function imports(): { files: string[]; local: Import[]; packages: Import[] } {
  const files = [...FOLDERS.filter((folder) => existsDir(folder)).flatMap(sourceFiles), ...ROOT_ENTRIES];
  const local: Import[] = [];
  const packages: Import[] = [];
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, from), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) packages.push({ from, to: fileName });
      else local.push({ from, to: relative(ROOT, resolve(ROOT, dirname(from), fileName)).replace(/\.js$/, '.ts') });
    }
  }
  return { files, local, packages };
}

function existsDir(dir: string): boolean {
  try {
    return statSync(join(ROOT, dir)).isDirectory();
  } catch {
    return false;
  }
}

function folderOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
}

/** The import circles among the files: each strongly connected set of two or more (Tarjan's algorithm). */
function circles(files: readonly string[], edges: readonly Import[]): string[][] {
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const { from, to } of edges) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!next.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const set: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      set.push(member);
    } while (member !== file);
    if (set.length > 1) found.push(set.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph', () => {
  const { files, local, packages } = imports();

  test('reads the sources it judges', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(local.length).toBeGreaterThan(300);
  });

  test('has no circles', () => {
    expect(circles(files, local), 'files that import each other in a loop: break the loop').toEqual([]);
  });

  test('its layering is one way: no folder may import one that may import it, even through others', () => {
    const reaches = (from: string, seen = new Set<string>()): Set<string> => {
      for (const to of MAY_IMPORT[from] ?? []) if (!seen.has(to)) reaches(to, seen.add(to));
      return seen;
    };
    expect(Object.keys(MAY_IMPORT).filter((folder) => reaches(folder).has(folder))).toEqual([]);
  });

  test("points one way: each folder imports only the folders below it (STYLE.md's layering)", () => {
    const upward = local
      .filter(({ from, to }) => {
        const source = folderOf(from);
        const target = folderOf(to);
        if (source === target || ROOT_ENTRIES.includes(from) || !(source in MAY_IMPORT)) return false;
        if (target === 'openapi' && source === 'reference') return false;
        return !MAY_IMPORT[source]!.includes(target);
      })
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(upward, 'imports against the layering').toEqual([]);
  });

  test('the rooms below the engine know nothing of vitest', () => {
    const offending = packages
      .filter(({ from, to }) => ROOMS.includes(folderOf(from)) && VITEST.test(to))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(offending).toEqual([]);
  });
});
