import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HarnessError } from '../core/errors.ts';
import { schemaProblem } from '../reports/file-schemas.ts';
import {
  currentProvenance,
  fileSha256,
  type Manifest,
  MANIFEST_FILE,
  manifestDigest,
  type Provenance,
} from './bundle-manifest.ts';
import type { Io } from './io.ts';

/** What checking a bundle found: each problem names its file; notes say what differs from this installation. */
export interface Verification {
  readonly problems: readonly string[];
  readonly notes: readonly string[];
  readonly files: number;
}

/** Reads a bundle's manifest, or throws BUNDLE_INVALID (exit 2) saying why the folder is not a bundle. */
async function readManifest(dir: string): Promise<Manifest> {
  const file = join(dir, MANIFEST_FILE);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new HarnessError(
      'BUNDLE_INVALID',
      `${dir} is not a bundle: it has no readable ${MANIFEST_FILE} (${error.code}).`,
      { cause: error },
    );
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HarnessError(
      'BUNDLE_INVALID',
      `${dir} is not a bundle: ${MANIFEST_FILE} is not JSON (${(error as Error).message}).`,
      { cause: error },
    );
  }
  const problem = schemaProblem('manifest', json);
  if (problem !== undefined)
    throw new HarnessError('BUNDLE_INVALID', `${dir} is not a bundle: ${MANIFEST_FILE} ${problem}.`);
  return json as Manifest;
}

/**
 * Re-checks a bundle: the manifest's own digest, every file's SHA-256, no file missing or added, each file against its
 * schema.
 */
export async function verifyBundle(dir: string, current: Provenance): Promise<Verification> {
  const manifest = await readManifest(dir);
  const problems: string[] = [];
  if (manifestDigest(manifest) !== manifest.digest)
    problems.push(`${MANIFEST_FILE} changed: its digest does not match its content`);
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const name of await readdir(dir))
    if (name !== MANIFEST_FILE && !listed.has(name)) problems.push(`${name} is not in ${MANIFEST_FILE}: it was added`);
  for (const entry of manifest.files) {
    const file = join(dir, entry.path);
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    if (size === undefined) {
      problems.push(`${entry.path} is missing`);
      continue;
    }
    const sha256 = await fileSha256(file);
    if (sha256 !== entry.sha256 || size !== entry.bytes) {
      problems.push(
        `${entry.path} changed: SHA-256 ${sha256} (${size} bytes), the manifest says ${entry.sha256} ` +
          `(${entry.bytes} bytes)`,
      );
      continue;
    }
    const invalid = entry.format === undefined ? undefined : await formatProblem(file, entry.format);
    if (invalid !== undefined) problems.push(`${entry.path} does not match its schema: ${invalid}`);
  }
  const notes: string[] = [];
  if (manifest.tool.version !== current.tool.version)
    notes.push(`made by ${manifest.tool.name} ${manifest.tool.version}; this is ${current.tool.version}`);
  const otherSpecs = Object.keys({ ...manifest.specs, ...current.specs })
    .filter((api) => manifest.specs[api] !== current.specs[api])
    .map((api) => `${api} ${manifest.specs[api] ?? '(none)'}, here ${current.specs[api] ?? '(none)'}`);
  if (otherSpecs.length > 0) notes.push(`judged by other specs than this installation's: ${otherSpecs.join('; ')}`);
  if (manifest.ruleTable.sha256 !== current.ruleTable.sha256) {
    notes.push(
      `judged by another rule table: ${manifest.ruleTable.rules} rules ${manifest.ruleTable.sha256}, here ` +
        `${current.ruleTable.rules} rules ${current.ruleTable.sha256}`,
    );
  }
  return { problems, notes, files: manifest.files.length };
}

async function formatProblem(file: string, format: 'findings' | 'har'): Promise<string | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (format === 'har') {
    const { harValidator } = await import('../reports/har-validator.ts');
    return harValidator()(json);
  }
  return schemaProblem(format, json);
}

/**
 * `conformance verify DIR`: exit 0 when the bundle is intact, 1 when a file changed (each named), 2 when DIR is not a
 * bundle.
 */
export async function runVerify(argv: readonly string[], io: Io): Promise<number> {
  let positionals: string[];
  try {
    positionals = parseArgs({ args: [...argv], options: {}, strict: true, allowPositionals: true }).positionals;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `${(error as Error).message}. \`conformance verify\` takes one folder.`, {
      cause: error,
    });
  }
  const [dir, ...extra] = positionals;
  if (dir === undefined || extra.length > 0)
    throw new HarnessError('CONFIG_INVALID', '`conformance verify` takes one folder: conformance verify DIR.');
  const folder = resolve(dir);
  const result = await verifyBundle(folder, await currentProvenance());
  for (const note of result.notes) io.out(`conformance verify: note: ${note}`);
  if (result.problems.length > 0) {
    for (const problem of result.problems) io.err(`conformance verify: ${problem}`);
    io.err(
      `conformance verify: ${folder} is NOT intact: ${result.problems.length} problem(s) in ` +
        `${result.files} file(s) listed.`,
    );
    return 1;
  }
  io.out(
    `conformance verify: ${folder} is intact: ${result.files} file(s) match their SHA-256 and their ` +
      'schemas. Tamper-evident, not signed.',
  );
  return 0;
}
