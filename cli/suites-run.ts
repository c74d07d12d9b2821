import { fileURLToPath } from 'node:url';
import { constants, existsSync } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startVitest, type Reporter, type Vitest } from 'vitest/node';
import { DEFAULTS } from '../core/defaults.ts';
import type { RunLink, RunListener, RunProgress } from '../core/run-channel.ts';
import { heartbeat } from '../reports/progress-line.ts';
import type { RunConfig, Shard } from '../core/config.ts';
import type { CreatedResource } from '../core/run-report.ts';
import { CollectReporter, type Collected } from '../reports/collect-reporter.ts';
import { quietVitestOutput } from './vitest-output.ts';
import { BUNDLED_SUITE_FILE } from '../suites/bundled-suite-file.ts';
import type { EarlyWorker } from './early-worker.ts';
import { harnessPool } from './harness-pool.ts';
import { STOPPED_BEFORE_ANY_VERDICT } from './interrupts.ts';

// The folder that holds suites/: the package root when running the TypeScript source, dist/ when running the build.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The one suite file, which registers every suite (a dist/ built before the suites were one file may still hold
// others): from the build, the one that loads the harness bundled (build/suite-bundle.ts), where the build wrote it.
const SUITE_FILES = import.meta.url.endsWith('.ts')
  ? 'conformance.suite.ts'
  : existsSync(join(ROOT, 'suites', BUNDLED_SUITE_FILE))
    ? BUNDLED_SUITE_FILE
    : 'conformance.suite.js';

type VitestOptions = NonNullable<Parameters<typeof startVitest>[2]>;
/** vitest's reporters as a list: names, instances, or a name with its options. */
type ReporterList = Extract<NonNullable<VitestOptions['reporters']>, readonly unknown[]>;

/** Where a shard's vitest blob report goes, under its report directory: `blob/blob-i-n.json`. */
export function blobFile(reportDir: string, shard: Shard): string {
  return join(resolve(reportDir), 'blob', `blob-${shard.index}-${shard.count}.json`);
}

/** What a run of the suites may be given beside its settings. */
export interface SuitesRunOptions {
  /** Requests the plan sends, for the heartbeat, once planned. */
  readonly planned?: () => number | undefined;
  /** Off a terminal, a heartbeat line after this long without output (DEFAULTS.heartbeatMs). */
  readonly heartbeatMs?: number;
  /**
   * Aborted when the run is interrupted: the worker then sends no new request but those that put back what the run
   * changed.
   */
  readonly stop?: AbortSignal;
  /**
   * Called as the run starts, with a function that reads what it has produced so far (for a hard stop): the resources
   * the worker announced from the first (its requests may go out before vitest's reporters are told it started), the
   * verdicts once vitest has.
   */
  readonly onStarted?: (soFar: () => Collected) => void;
  /** The worker thread the command spawned as it started, for vitest's pool to adopt (a run of the build). */
  readonly early?: EarlyWorker;
}

/**
 * Runs the suite file with vitest in one worker, returning what it produced: it registers every suite and runs their
 * probe groups once, concurrently, under one session. The thread vitest starts is given `link` (the run's settings and
 * its link back, as vitest's `provide`); the caller's `listener` hears it. A run that is given up before it is
 * prepared (the listener's `prepared` rejects: a setting or the preflight failed) says nothing more. A shard runs its
 * part of the suites (`shardSuites`, the planner's split) and also writes vitest's blob report for `conformance merge`.
 * Off a terminal, a heartbeat line reports progress after every few seconds of quiet.
 */
export async function runSuites(
  config: RunConfig,
  link: RunLink,
  listener: RunListener,
  write: (line: string) => void,
  redact: (text: string) => string,
  options: SuitesRunOptions = {},
): Promise<Collected> {
  // A run given up before its first request (a setting or the preflight failed) says nothing and leaves no report.
  let abandoned = false;
  listener.prepared.catch(() => (abandoned = true));
  const kept = (): boolean => !abandoned;
  const say = (line: string): void => {
    if (kept()) write(line);
  };
  const created = new Map<string, CreatedResource[]>();
  // Appended in place: a copy per announcement made the main thread's share of a run quadratic in what it created.
  listener.onCreated((suite, resource) => {
    const list = created.get(suite);
    if (list) list.push(resource);
    else created.set(suite, [resource]);
  });
  const stopWorker = (): void => listener.stop();
  if (options.stop?.aborted) stopWorker();
  else options.stop?.addEventListener('abort', stopWorker, { once: true });
  const started = Date.now();
  const beat = process.stdout.isTTY
    ? undefined
    : heartbeat(say, options.heartbeatMs ?? DEFAULTS.heartbeatMs, () =>
        heartbeatText(listener.progress(), options.planned?.(), started),
      );
  const collector = new CollectReporter(beat ? beat.line : say, redact);
  let vitest: Vitest | undefined;
  options.onStarted?.(() => collectedSoFar(vitest, created));
  const reportDir = resolve(config.reportDir);
  if (config.shard) await rm(blobFile(reportDir, config.shard), { force: true });
  try {
    await runVitest(config.cacheDir, {
      testTimeout: config.budgetMs + 60_000,
      hookTimeout: config.budgetMs + 60_000,
      provide: { conformance: link },
      ...(options.early ? { pool: harnessPool(options.early) } : {}),
      reporters: [
        collector,
        {
          onInit: (started) => {
            vitest = started;
          },
        },
        ...(config.shard ? [blob(blobFile(reportDir, config.shard))] : []),
      ],
      // One suite file holds every suite: a shard runs its part of them (the planner's split), and its own project name
      // keeps its file apart from the other shards' when `conformance merge` replays the blob reports.
      ...(config.shard ? { name: shardProject(config.shard) } : {}),
    });
  } finally {
    options.stop?.removeEventListener('abort', stopWorker);
    beat?.stop();
  }
  if (config.shard && abandoned) await rm(blobFile(reportDir, config.shard), { force: true });
  else if (config.shard) await redactFile(blobFile(reportDir, config.shard), redact);
  return collector.collected;
}

function heartbeatText(progress: RunProgress, planned: number | undefined, started: number): string {
  const { sent, rateLimited, violations } = progress;
  return (
    `conformance: ${sent}${planned === undefined ? '' : `/${planned}`} requests sent, ${rateLimited} ` +
    `rate-limit waits, ${violations} violations so far (${Math.round((Date.now() - started) / 1000)} s)`
  );
}

/**
 * The verdicts and suite reports a run has produced so far, read off vitest's test tree; a suite that has not
 * reported yet is listed with what it left on the target so far (`created`, as the worker announced it).
 */
export function collectedSoFar(
  vitest: Vitest | undefined,
  created: ReadonlyMap<string, readonly CreatedResource[]>,
): Collected {
  const collected: Collected = { results: [], suites: [], errors: [] };
  let pending = 0;
  for (const module of vitest?.state.getTestModules() ?? []) {
    for (const suite of module.children.allSuites()) {
      const report = suite.meta().conformanceSuite;
      if (report) collected.suites.push(report);
    }
    for (const test of module.children.allTests()) {
      const result = test.meta().conformanceResult;
      if (result) collected.results.push(result);
      else pending += 1;
    }
  }
  const reported = new Set(collected.suites.map((report) => report.suite));
  for (const [suite, resources] of created) {
    if (!reported.has(suite))
      collected.suites.push({
        suite,
        coverage: {},
        created: [...resources],
        requests: 0,
        rateLimited: 0,
        skippedGroups: [],
      });
  }
  // Before vitest has declared the suite file's tests (the worker's requests go out before), none can be counted.
  if (pending > 0) collected.errors.push(`the run was stopped at once: ${pending} verdict(s) were not reached`);
  else if (collected.results.length === 0) collected.errors.push(STOPPED_BEFORE_ANY_VERDICT);
  return collected;
}

/**
 * The vitest project name a shard's run carries, so that each shard's test file has an id of its own in the blob
 * reports.
 */
function shardProject(shard: Shard): string {
  return `conformance shard ${shard.index}/${shard.count}`;
}

/**
 * Replays the blob reports in `blobDir` (of `shards`) through vitest's own merge, so that our reporters see the whole
 * run's test tree: one project per shard, named as the shard's run named it, to which vitest's merge gives back its
 * file.
 */
export async function mergeSuites(
  blobDir: string,
  shards: readonly Shard[],
  cacheDir: string,
  write: (line: string) => void,
  redact: (text: string) => string,
): Promise<Collected> {
  const collector = new CollectReporter(write, redact);
  await runVitest(cacheDir, {
    mergeReports: resolve(blobDir),
    projects: shards.map((shard) => ({ extends: true, test: { name: shardProject(shard) } })),
    reporters: [collector],
  });
  return collector.collected;
}

/**
 * A last redaction of a file vitest wrote, if it did (the blob holds the test tree as vitest saw it, errors included).
 */
async function redactFile(file: string, redact: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return;
  const redacted = redact(text);
  if (redacted !== text) await writeFile(file, redacted);
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

/**
 * Runs vitest with the harness's pool settings (one worker thread, no isolation, no config file, caches under
 * `cacheDir`); true when a test failed or errored. vitest's own SIGINT and SIGTERM handlers (which end the process at
 * once) are removed as soon as it adds them, so that the command decides what an interrupt does: vitest adds them as it
 * is created, and the run's first requests go out before vitest calls its reporters' `onInit` (a signal in between
 * ended the process with no report).
 */
export async function runVitest(
  cacheDir: string,
  options: Omit<VitestOptions, 'reporters'> & { reporters: ReporterList },
): Promise<boolean> {
  // What the suites inject is handed over as the run starts, not as configuration: vitest deep-merges and clones its
  // configuration, which for the two specs' documents took about 0.1 s.
  const { provide, ...settings } = options;
  // From vitest's start to its `onInit` (where it has added its own), a signal listener added is vitest's; a signal is
  // delivered between tasks, never before a microtask, so one removed in the next microtask never hears one.
  const leaveSignalsToUs = (event: string | symbol, listener: (...args: unknown[]) => void): void => {
    if (event === 'SIGINT' || event === 'SIGTERM') queueMicrotask(() => process.removeListener(event, listener));
  };
  const handOver: Reporter = {
    onInit(vitest) {
      process.removeListener('newListener', leaveSignalsToUs);
      for (const [key, value] of Object.entries(provide ?? {}))
        vitest.provide(key as 'conformance', value as Parameters<Vitest['provide']>[1]);
    },
  };
  process.on('newListener', leaveSignalsToUs);
  let vitest: Vitest;
  try {
    vitest = await startVitest(
      'test',
      [],
      {
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
        // The compiled harness modules load with Node's own import, like any package's: only the suite files go
        // through vite.
        server: { deps: { external: [/\/dist\/(?!suites\/[^/]+\.suite\.js$)/] } },
        ...settings,
        reporters: [handOver, ...options.reporters],
      },
      // An inline PostCSS configuration: the suite files have no CSS, and without one vite searched the folders up
      // from the root for a PostCSS config file on every run (about 50 ms of each run's CPU).
      { logLevel: 'error', cacheDir: join(cacheDir, 'vite'), css: { postcss: {} } },
      { stdout: quietVitestOutput(process.stdout), stderr: process.stderr },
    );
  } finally {
    process.removeListener('newListener', leaveSignalsToUs);
  }
  const failed = !vitest.state.getFiles().every((file) => file.result?.state === 'pass');
  await vitest.close();
  return failed;
}
