import { fileURLToPath } from 'node:url';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import type { Shard } from '../core/config.ts';
import type { ProvidedRun } from '../suites/support/provided.ts';
import { CollectReporter, type Collected } from '../reports/collect-reporter.ts';
import { ConformanceJunitReporter } from '../reports/junit-reporter.ts';
import { quietVitestOutput } from './vitest-output.ts';

// The folder that holds suites/: the package root when running the TypeScript source, dist/ when running the build.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITE_FILES = import.meta.url.endsWith('.ts') ? '**/*.suite.ts' : '**/*.suite.js';

type VitestOptions = NonNullable<Parameters<typeof startVitest>[2]>;

/** Where a shard's vitest blob report goes, under its report directory: `blob/blob-i-n.json`. */
export function blobFile(reportDir: string, shard: Shard): string {
  return join(resolve(reportDir), 'blob', `blob-${shard.index}-${shard.count}.json`);
}

/**
 * Runs the suites with vitest in one worker (so that rate limits hold run-wide), returning what they produced.
 * A shard runs its part of the suite files (vitest's `shard`) and also writes vitest's blob report for `conformance merge`.
 */
export async function runSuites(run: ProvidedRun, write: (line: string) => void, redact: (text: string) => string): Promise<Collected> {
  const { config } = run;
  const collector = new CollectReporter(write, redact);
  const reportDir = resolve(config.reportDir);
  if (config.shard) await rm(blobFile(reportDir, config.shard), { force: true });
  await runVitest(config.cacheDir, {
    testTimeout: config.budgetMs + 60_000,
    hookTimeout: config.budgetMs + 60_000,
    provide: { conformance: run },
    reporters: [
      collector,
      junit(reportDir),
      ...(config.shard ? [blob(blobFile(reportDir, config.shard))] : []),
    ],
    ...(config.shard ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
  });
  if (config.shard) await redactFile(blobFile(reportDir, config.shard), redact);
  return collector.collected;
}

/** Replays the blob reports in `blobDir` through vitest's own merge, so that our reporters see the whole run's test tree. */
export async function mergeSuites(blobDir: string, reportDir: string, cacheDir: string, write: (line: string) => void, redact: (text: string) => string): Promise<Collected> {
  const collector = new CollectReporter(write, redact);
  await runVitest(cacheDir, { mergeReports: resolve(blobDir), reporters: [collector, junit(resolve(reportDir))] });
  return collector.collected;
}

/** A last redaction of a file vitest wrote, if it did (the blob holds the test tree as vitest saw it, errors included). */
async function redactFile(file: string, redact: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return;
  const redacted = redact(text);
  if (redacted !== text) await writeFile(file, redacted);
}

function junit(reportDir: string): ConformanceJunitReporter {
  return new ConformanceJunitReporter({ outputFile: join(reportDir, 'junit.xml'), suiteName: 'conformance' });
}

function blob(outputFile: string): ['blob', { outputFile: string }] {
  return ['blob', { outputFile }];
}

/**
 * vitest's file-system module cache (keyed by each file's content; cleared when the lockfile changes) spares a run
 * the TypeScript transform of every suite module, about 0.5 s. It lives in the harness's cache folder, never inside
 * the installed package; where that cannot be written, runs go without it rather than fail.
 */
export async function moduleCache(dir: string): Promise<Pick<VitestOptions, 'experimental'>> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    return { experimental: { fsModuleCache: true, fsModuleCachePath: dir } };
  } catch {
    return {};
  }
}

/** Runs vitest with the harness's pool settings (one worker thread, no isolation, no config file, caches under `cacheDir`); true when a test failed or errored. */
export async function runVitest(cacheDir: string, options: VitestOptions): Promise<boolean> {
  const vitest = await startVitest('test', [], {
    config: false,
    root: ROOT,
    dir: join(ROOT, 'suites'),
    include: [SUITE_FILES],
    watch: false,
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    passWithNoTests: true,
    ...(await moduleCache(join(cacheDir, 'modules'))),
    ...options,
  }, { logLevel: 'error', cacheDir: join(cacheDir, 'vite') }, { stdout: quietVitestOutput(process.stdout), stderr: process.stderr });
  const failed = !vitest.state.getFiles().every((file) => file.result?.state === 'pass');
  await vitest.close();
  return failed;
}
