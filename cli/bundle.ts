import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../settings/defaults.ts';
import { HarnessError } from '../core/errors.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { buildManifest, type BundleFile, currentProvenance, fileSha256, MANIFEST_FILE } from './bundle-manifest.ts';
import type { Io } from './io.ts';

/** The report files a run writes that a bundle takes, when they are there, and the format each is checked against. */
const REPORT_FILES: readonly (readonly [string, BundleFile['format'] | undefined])[] = [
  ['findings.json', 'findings'],
  ['report.html', undefined],
  ['summary.md', undefined],
  ['junit.xml', undefined],
  ['results.sarif', undefined],
];

/** The name a run's HAR takes in a bundle. */
const BUNDLE_HAR = 'traffic.har';

/**
 * Refuses a bundle folder that exists and holds anything, or is not a folder: a bundle is never written over other
 * files.
 */
export async function checkBundleFolder(dir: string, flag: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new HarnessError(
      'BUNDLE_INVALID',
      `${flag} ${dir} is not a folder that can be read (${error.code}): name a new folder.`,
      { cause: error },
    );
  });
  if (entries.length > 0) {
    throw new HarnessError(
      'BUNDLE_INVALID',
      `${flag} ${dir} is not empty: name a new folder (a bundle is never written over other files; nothing ` +
        'in it was changed).',
    );
  }
}

/** Copies a run's reports (and its HAR) into a new folder with manifest.json; returns the manifest's path. */
export async function writeBundle(
  dir: string,
  reportDir: string,
  har: string | undefined,
  flag = 'the bundle folder',
): Promise<{ manifest: string; files: number }> {
  await checkBundleFolder(dir, flag);
  const findingsText = await readFile(join(reportDir, 'findings.json'), 'utf8').catch(
    (error: NodeJS.ErrnoException) => {
      throw new HarnessError(
        'BUNDLE_INVALID',
        `${reportDir} holds no findings.json (${error.code}): bundle the report folder of a run (--report-dir).`,
        { cause: error },
      );
    },
  );
  let report: RunReport;
  try {
    report = JSON.parse(findingsText) as RunReport;
  } catch (error) {
    throw new HarnessError(
      'BUNDLE_INVALID',
      `${join(reportDir, 'findings.json')} is not JSON (${(error as Error).message}): bundle the report ` +
        'folder of a run.',
      { cause: error },
    );
  }
  const sources: [string, string, BundleFile['format'] | undefined][] = [];
  for (const [name, format] of REPORT_FILES)
    if (await exists(join(reportDir, name))) sources.push([join(reportDir, name), name, format]);
  if (har !== undefined) {
    if (!(await exists(har)))
      throw new HarnessError(
        'BUNDLE_INVALID',
        `--har ${har} does not exist: give the HAR file the run wrote, or leave it out.`,
      );
    sources.push([har, BUNDLE_HAR, 'har']);
  }
  await mkdir(dir, { recursive: true });
  const files: BundleFile[] = [];
  for (const [from, name, format] of sources) {
    const to = join(dir, name);
    await copyFile(from, to);
    files.push({
      path: name,
      bytes: (await stat(to)).size,
      sha256: await fileSha256(to),
      ...(format ? { format } : {}),
    });
  }
  const manifest = buildManifest(await currentProvenance(), report, files, new Date());
  const file = join(dir, MANIFEST_FILE);
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest: file, files: files.length };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** `conformance bundle DIR [--report-dir DIR] [--har FILE]`: gathers a finished run's evidence into DIR. */
export async function runBundle(argv: readonly string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: string[]) =>
    parseArgs({
      args,
      options: { 'report-dir': { type: 'string' }, har: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
  try {
    parsed = parse([...argv]);
  } catch (error) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${(error as Error).message}. Run \`conformance help bundle\` for its flags.`,
      { cause: error },
    );
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0)
    throw new HarnessError(
      'CONFIG_INVALID',
      '`conformance bundle` takes one folder: conformance bundle DIR [--report-dir DIR] [--har FILE].',
    );
  const reportDir = resolve(parsed.values['report-dir'] ?? DEFAULTS.reportDir);
  const har = parsed.values.har === undefined ? undefined : resolve(parsed.values.har);
  const written = await writeBundle(resolve(dir), reportDir, har);
  io.out(
    `conformance: bundled ${written.files} file(s) of the run in ${reportDir} into ${resolve(dir)} ` +
      `(${basename(written.manifest)} lists their SHA-256; check with conformance verify ${dir})`,
  );
  return 0;
}
