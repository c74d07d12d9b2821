import { writeFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { DEFAULTS } from '../settings/defaults.ts';
import type { RunLink, RunListener, RunProgress } from '../run/run-channel.ts';
import { heartbeat, progressLine } from '../reports/progress-line.ts';
import type { RunConfig, Shard } from '../settings/config.ts';
import type { Collected, CreatedResource, JudgedSuite } from '../run/run-report-types.ts';
import type { EarlyWorker } from './early-worker.ts';
import { STOPPED_BEFORE_ANY_VERDICT } from './interrupts.ts';

/** Where a shard writes what `conformance merge` joins, under its report directory: `shard/shard-i-n.json`. */
export function shardFile(reportDir: string, shard: Shard): string {
  return join(resolve(reportDir), 'shard', `shard-${shard.index}-${shard.count}.json`);
}

/** What a run of the suites may be given beside its settings. */
export interface SuitesRunOptions {
  /** Requests the plan sends, for the heartbeat, once planned. */
  readonly planned?: () => number | undefined;
  /** Off a terminal, a heartbeat line after this long without output (DEFAULTS.heartbeatMs). */
  readonly heartbeatMs?: number;
  /**
   * Aborted when the run is interrupted: the run's thread then sends no new request but those that put back what the
   * run changed.
   */
  readonly stop?: AbortSignal;
  /**
   * Called as the run starts, with a function that reads what it has produced so far (for a hard stop): the resources
   * the run's thread announced, the suites judged.
   */
  readonly onStarted?: (soFar: () => Collected) => void;
  /** The run's thread (cli/early-worker.ts), handed `link` already; without one, the run goes on in this thread. */
  readonly early?: EarlyWorker;
}

/**
 * Runs the suites, prepared, sent and judged by the run's thread (`options.early`, which has `link`; else in this
 * thread, a run of the sources), and returns what they produced: a line per suite as it is judged, each suite's
 * verdicts and report. The caller's `listener` hears the run. A run that is given up before it is prepared (the
 * listener's `prepared` rejects: a setting or the preflight failed) says nothing more. A shard runs its part of the
 * suites (`shardSuites`, the planner's split) and also writes it for `conformance merge` (`shardFile`). On a terminal a
 * status line is rewritten in place; off one, a heartbeat line reports progress after every few seconds of quiet.
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
  const say = (line: string): void => {
    if (!abandoned) write(line);
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
  const status = (): string => progressText(listener.progress(), options.planned?.(), started);
  const tty = process.stdout.isTTY === true;
  const beat = tty ? undefined : heartbeat(say, options.heartbeatMs ?? DEFAULTS.heartbeatMs, status);
  const progress = progressLine(
    tty
      ? { line: say, raw: (text) => process.stdout.write(text), columns: process.stdout.columns }
      : { line: beat ? beat.line : say },
  );
  const statusTimer = tty ? setInterval(() => progress.status(status()), 1_000).unref() : undefined;
  listener.onJudged((suite) => progress.print(suiteLine(suite)));
  let expected: number | undefined;
  listener.prepared.then((event) => (expected = event.verdicts)).catch(() => undefined);
  options.onStarted?.(() => collectedSoFar(listener.judged(), created, expected));
  try {
    // A shard's part of an earlier run is not left as this one's when this one is given up.
    if (config.shard) await rm(shardFile(config.reportDir, config.shard), { force: true });
    const running = options.early
      ? options.early.failed
      : import('../suites/bundle-entry.ts').then((harness) => harness.commandRun(link)).then(() => NEVER);
    // A run given up as it was prepared (its `prepared` rejects) ends here with that error.
    const suites = await Promise.race([listener.finished, running, listener.prepared.then(() => NEVER)]);
    const collected = collectedOf(suites);
    if (config.shard) await writeShard(shardFile(config.reportDir, config.shard), collected, redact);
    return collected;
  } finally {
    options.stop?.removeEventListener('abort', stopWorker);
    clearInterval(statusTimer);
    progress.clear();
    beat?.stop();
  }
}

/** A promise that never settles: the run in this thread is over when its last event is heard, not when it returns. */
const NEVER = new Promise<never>(() => undefined);

/**
 * The line a suite gets once judged: `✓ pipes: 40 passed, 0 failed, 3 skipped (120 requests)`; a tick only for a suite
 * that passed something, and a suite that sent nothing says so, with why (`- alerts: sent nothing, 30 skipped: ...`).
 */
export function suiteLine({ report, results, errors }: JudgedSuite): string {
  const count = (outcome: string): number => results.filter((result) => result.outcome === outcome).length;
  const [passed, failed, skipped] = [count('passed'), count('failed'), count('skipped')];
  const counts = `${passed} passed, ${failed} failed, ${skipped} skipped (${report.requests} requests)`;
  if (failed > 0 || errors.length > 0)
    return `✗ ${report.suite}: ${counts}${errors.length > 0 ? ', not judged: an error' : ''}`;
  if (passed > 0) return `✓ ${report.suite}: ${counts}`;
  // The most common reason, and how many verdicts were skipped for others.
  const byReason = new Map<string, number>();
  for (const result of results) {
    const reason = result.skipReasons?.[0] ?? result.message;
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const [reason, most] = [...byReason].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const why = `${reason ? `: ${reason}` : ''}${skipped > most ? ` (${skipped - most} for other reasons)` : ''}`;
  return report.requests === 0
    ? `- ${report.suite}: sent nothing, ${skipped} skipped${why}`
    : `? ${report.suite}: nothing judged, ${counts}${why}`;
}

/**
 * The progress line: the planned requests sent out of the plan, never past it, and apart what the plan does not count
 * (retries after a 429, requests that shrink failures, put-backs a target's answers called for beyond the estimate).
 */
export function progressText(progress: RunProgress, planned: number | undefined, started: number): string {
  const { sent, rateLimited, shrinking, violations } = progress;
  const own = Math.max(0, sent - rateLimited - shrinking);
  const beyond = planned === undefined ? 0 : Math.max(0, own - planned);
  const extra = [
    `${rateLimited} retried after a 429`,
    ...(shrinking > 0 ? [`${shrinking} to shrink failures`] : []),
    ...(beyond > 0 ? [`${beyond} beyond the plan`] : []),
  ];
  const count = planned === undefined ? `${own} requests sent` : `${own - beyond}/${planned} planned requests sent`;
  return (
    `conformance: ${count} (${extra.join(', ')}), ${violations} violations so far ` +
    `(${Math.round((Date.now() - started) / 1000)} s)`
  );
}

/** The suites' verdicts, reports and errors, in the run's order of suites. */
export function collectedOf(suites: readonly JudgedSuite[]): Collected {
  return {
    results: suites.flatMap((suite) => suite.results),
    suites: suites.map((suite) => suite.report),
    errors: suites.flatMap((suite) => suite.errors),
  };
}

/**
 * What a run stopped at once has produced so far: the suites judged, and for each suite not judged yet what it left on
 * the target so far (`created`, as the run's thread announced it); `expected`, the verdicts the run would reach, once
 * it was prepared.
 */
export function collectedSoFar(
  judged: readonly JudgedSuite[],
  created: ReadonlyMap<string, readonly CreatedResource[]>,
  expected: number | undefined,
): Collected {
  const collected = collectedOf(judged);
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
  const pending = (expected ?? 0) - collected.results.length;
  if (collected.results.length === 0) collected.errors.push(STOPPED_BEFORE_ANY_VERDICT);
  else if (pending > 0) collected.errors.push(`the run was stopped at once: ${pending} verdict(s) were not reached`);
  return collected;
}

/** Writes a shard's part of the run, what its suites produced, for `conformance merge`: redacted once more. */
async function writeShard(file: string, collected: Collected, redact: (text: string) => string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, redact(JSON.stringify(collected)));
}
