import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../settings/defaults.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { createLimiter, type LimiterSignals } from './limiter.ts';
import { runBare, runCommandOnly, runHarness, type HarnessRun, type ProcessRun } from './process-run.ts';
import { startProxy, type Proxy as RecordingProxy, type ProxiedRequest } from './proxy.ts';

/** The parts of the bench, in the order they run; `--part` picks some. */
const PARTS = ['start', 'latency', 'limiters', 'runs'] as const;

const LIMITERS: readonly LimiterSignals[] = ['x-ratelimit-reset', 'retry-after-60', 'ratelimit-remaining'];
const LIMITER_TITLES: Readonly<Record<LimiterSignals, string>> = {
  'x-ratelimit-reset': '429 with X-RateLimit-Reset only',
  'retry-after-60': '429 with Retry-After: 60 and RateLimit-Reset',
  'ratelimit-remaining': 'RateLimit-Remaining on every answer',
};
const LIMIT = 20;
const WINDOW_MS = 2000;

/** The targets, printed beside the figures and never asserted. */
const TARGET_AT_ONCE = 2.5;
const TARGET_LATE = 1.25;
const TARGET_LIMITED = 1.1;

const HARNESS_DIR = fileURLToPath(new URL('..', import.meta.url));

/** One line of the side-by-side table. */
interface Row {
  readonly scenario: string;
  readonly harness: ProcessRun;
  readonly requests: number;
  readonly baseline: { readonly label: string; readonly ms: number };
  readonly target: number;
  readonly limited?: number;
  /** Where the harness's time went (before its first request, first to last request, after), and the bare process's. */
  readonly phases: Phases;
  readonly barePhases?: Phases;
  readonly note?: string;
}

interface Phases {
  readonly before: number;
  /** From the first request of the preflight to the first probe: the rest of the start (the first examples drawn). */
  readonly preflight: number;
  readonly requests: number;
  readonly after: number;
}

/** How `--runs` changes a run's cost. */
interface Growth {
  readonly runs: number;
  readonly run: HarnessRun;
  readonly requests: number;
}

/** The bench's flags; throws on one it does not know, or a value missing. */
function benchArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      part: { type: 'string' },
      seed: { type: 'string' },
      harness: { type: 'string' },
      'delay-ms': { type: 'string' },
      'runs-list': { type: 'string' },
      repeat: { type: 'string' },
      limiters: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  }).values;
}

/**
 * `npm run bench`: the harness as a whole process (`node bin/conformance.js`) side by side with a bare Node process
 * sending the same requests with the same concurrency to the same reference target, answering at once and 150 ms
 * late; under a limiter of 20 requests per 2 s per credential (three ways of telling it), against the least time the
 * limit allows; and with `--runs 8, 64, 512`, time per request and peak memory. Prints; never fails on timing.
 */
export async function runBench(argv: readonly string[], out: (line: string) => void): Promise<number> {
  const usage = (): void => {
    out('npm run bench -- [--part start,latency,limiters,runs] [--seed 1] [--delay-ms 150] [--runs-list 8,64,512]');
    out('                  [--repeat N: each latency row N times, harness and bare process in turn; the median shown]');
    out(`                  [--limiters ${LIMITERS.join(',')}] [--harness <checkout whose bin/conformance.js to run>]`);
  };
  let values: ReturnType<typeof benchArgs>;
  try {
    values = benchArgs(argv);
  } catch (error) {
    out(`bench: ${(error as Error).message}`);
    usage();
    return 2;
  }
  if (values.help) {
    usage();
    return 0;
  }
  const parts = list(values.part, PARTS, '--part');
  const limiters = list(values.limiters, LIMITERS, '--limiters');
  const seed = values.seed ?? '1';
  const delayMs = Number(values['delay-ms'] ?? 150);
  const runsList = (values['runs-list'] ?? '8,64,512').split(',').map(Number);
  const repeat = Number(values.repeat ?? 1);
  if (!Number.isInteger(repeat) || repeat < 1) {
    out(`--repeat must be a whole number of at least 1, not ${JSON.stringify(values.repeat)}`);
    return 2;
  }
  const harnessDir = values.harness ?? HARNESS_DIR;
  const concurrency = DEFAULTS.concurrency;
  const started = performance.now();
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  out(
    `bench: node ${process.version}, harness ${harnessDir}, seed ${seed}, concurrency ${concurrency}, ` +
      `load average ${load}`,
  );

  const rows: Row[] = [];
  const growth: Growth[] = [];
  const starts = parts.includes('start') ? await startTimes(harnessDir) : [];
  if (parts.includes('latency')) {
    for (const delay of [0, delayMs])
      rows.push(await medianRow(repeat, () => latencyRow(harnessDir, seed, delay, concurrency)));
  }
  if (parts.includes('limiters')) {
    for (const signals of limiters) rows.push(await limiterRow(harnessDir, seed, signals));
  }
  if (parts.includes('runs')) {
    for (const runs of runsList) growth.push(await runsRow(harnessDir, seed, runs));
  }

  out('');
  if (starts.length > 0) printStarts(starts, out);
  if (rows.length > 0) printRows(rows, out);
  if (growth.length > 0) printGrowth(growth, out);
  out(
    `bench took ${s(performance.now() - started)}; load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const codes = [...rows.map((row) => row.harness.code), ...growth.map((g) => g.run.code)];
  return codes.every((code) => code === 0) ? 0 : 1;
}

/**
 * A row measured `repeat` times, harness and bare process in turn each time (so that both meet the same moment of a
 * busy machine): the one of the median ratio, with every ratio in its note.
 */
async function medianRow(repeat: number, measure: () => Promise<Row>): Promise<Row> {
  const measured: Row[] = [];
  for (let i = 0; i < repeat; i++) measured.push(await measure());
  if (repeat === 1) return measured[0]!;
  const ratio = (row: Row): number => row.harness.wallMs / row.baseline.ms;
  const sorted = [...measured].sort((a, b) => ratio(a) - ratio(b));
  const median = sorted[Math.floor(repeat / 2)]!;
  const ratios = measured.map((row) => `${ratio(row).toFixed(2)}x`).join(', ');
  return {
    ...median,
    note: [median.note, `median of ${repeat}, in order measured: ${ratios}`].filter(Boolean).join('; '),
  };
}

/** How many times each start-up is measured; the median is printed. */
const START_REPEATS = 5;

/** A command that sends nothing, timed as a whole process, beside a Node process that does nothing. */
interface StartTime {
  readonly command: string;
  readonly ms: number;
  readonly peakRss: number;
}

/**
 * `conformance --version` and `conformance --dry-run` (settings, specs, plan; no request) against `node -e ''`, each
 * the median of START_REPEATS.
 */
async function startTimes(harnessDir: string): Promise<StartTime[]> {
  const commands: ReadonlyArray<readonly [string, string | undefined, readonly string[]]> = [
    ["node -e ''", undefined, []],
    ['conformance --version', harnessDir, ['--version']],
    ['conformance --dry-run', harnessDir, ['--dry-run']],
  ];
  const times: StartTime[] = [];
  for (const [command, dir, args] of commands) {
    const runs: ProcessRun[] = [];
    for (let i = 0; i < START_REPEATS; i++) runs.push(await runCommandOnly(dir, args));
    const median = [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(START_REPEATS / 2)]!;
    times.push({ command, ms: median.wallMs, peakRss: median.peakRss });
  }
  return times;
}

function printStarts(starts: readonly StartTime[], out: (line: string) => void): void {
  out(`Start-up, whole processes that send nothing (median of ${START_REPEATS})`);
  const bare = starts[0]!.ms;
  out(
    table(
      ['command', 'wall', 'over bare Node', 'peak RSS'],
      starts.map((start) => [
        start.command,
        s(start.ms),
        s(start.ms - bare),
        `${(start.peakRss / 2 ** 20).toFixed(0)} MiB`,
      ]),
    ),
  );
  out('');
}

/** The harness and the bare process, each through recording proxies that delay every answer by `delayMs`. */
async function latencyRow(harnessDir: string, seed: string, delayMs: number, concurrency: number): Promise<Row> {
  const target = await startReference();
  const scratch = await mkdtemp(join(tmpdir(), 'conformance-bench-requests-'));
  try {
    const proxies = await proxiesFor(target, { record: true, delayMs });
    const harness = await runHarness(harnessDir, ['--seed', seed], targetEnv(target, proxies));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    const recorded = arrivals(proxies);

    const bareProxies = await proxiesFor(target, { record: true, delayMs });
    const via = new Map(
      [target.managementUrl, target.alertsUrl].map((url, i) => [new URL(url).origin, bareProxies[i]!.url]),
    );
    const file = join(scratch, 'requests.json');
    await writeFile(
      file,
      JSON.stringify(
        recorded.map((r) => ({
          url: `${via.get(r.origin)}${r.path}`,
          method: r.method,
          headers: r.headers,
          body: r.body.toString('base64'),
        })),
      ),
    );
    const bare = await runBare(file, concurrency);
    await Promise.all(bareProxies.map((proxy) => proxy.close()));
    return {
      scenario: delayMs === 0 ? 'answers at once' : `answers ${delayMs} ms late`,
      harness,
      requests: recorded.length,
      baseline: { label: 'bare process', ms: bare.wallMs },
      target: delayMs === 0 ? TARGET_AT_ONCE : TARGET_LATE,
      phases: phasesOf(
        harness,
        recorded.map((r) => r.at),
        preflightRequests(harness),
      ),
      barePhases: phasesOf(
        bare,
        arrivals(bareProxies).map((r) => r.at),
        0,
      ),
      ...(harness.code === 0 ? {} : { note: `harness exit code ${harness.code}` }),
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await target.close();
  }
}

/**
 * The harness behind a limiter of LIMIT requests per WINDOW_MS per credential, against the least time the limit allows.
 */
async function limiterRow(harnessDir: string, seed: string, signals: LimiterSignals): Promise<Row> {
  const target = await startReference();
  const limiter = createLimiter({ limit: LIMIT, windowMs: WINDOW_MS, signals });
  try {
    const proxies = await Promise.all([
      startProxy(target.managementUrl, { record: true, limiter: { limiter, scope: 'management' } }),
      startProxy(target.alertsUrl, { record: true, limiter: { limiter, scope: 'alerts' } }),
    ]);
    const harness = await runHarness(harnessDir, ['--seed', seed], targetEnv(target, proxies));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    const seen = [...limiter.credentials().values()];
    const totals = limiter.totals();
    return {
      scenario: `${LIMIT} per ${WINDOW_MS / 1000} s, ${LIMITER_TITLES[signals]}`,
      harness,
      requests: totals.accepted,
      baseline: { label: 'least possible', ms: limiter.leastPossibleMs() },
      target: TARGET_LIMITED,
      limited: totals.limited,
      phases: phasesOf(
        harness,
        arrivals(proxies).map((r) => r.at),
        preflightRequests(harness),
      ),
      note: [
        `${seen.length} credentials`,
        ...(harness.code === 0 ? [] : [`harness exit code ${harness.code}`]),
        `the harness retried ${harness.report?.stats.rateLimited ?? 'n/a'} 429s`,
        ...(harness.report?.outcome && harness.report.outcome !== 'passed'
          ? [`outcome ${harness.report.outcome}`]
          : []),
      ].join(', '),
    };
  } finally {
    await target.close();
  }
}

/** A run with `--runs runs` against a fresh reference target, no proxy. */
async function runsRow(harnessDir: string, seed: string, runs: number): Promise<Growth> {
  const target = await startReference();
  try {
    const run = await runHarness(
      harnessDir,
      ['--seed', seed, '--runs', String(runs)],
      targetEnv(target, [{ url: target.managementUrl }, { url: target.alertsUrl }]),
    );
    return { runs, run, requests: run.report?.stats.requests ?? 0 };
  } finally {
    await target.close();
  }
}

function printRows(rows: readonly Row[], out: (line: string) => void): void {
  out(
    'Side by side: the harness as a whole process, the same requests sent by a bare Node process or the ' +
      'least time the limit allows',
  );
  out(
    table(
      ['scenario', 'requests', 'harness', 'compared with', '', 'ratio', 'target', '429s'],
      rows.map((row) => [
        row.scenario,
        String(row.requests),
        s(row.harness.wallMs),
        row.baseline.label,
        s(row.baseline.ms),
        `${(row.harness.wallMs / row.baseline.ms).toFixed(2)}x`,
        `<= ${row.target}x`,
        row.limited === undefined ? '' : String(row.limited),
      ]),
    ),
  );
  out('');
  out(
    'Where the time goes (request arrival times at the proxies): before the first request, from the ' +
      'preflight to the first probe,',
  );
  out(
    'first probe to last request (against the requests of the bare process, or the least possible time), ' +
      'after the last',
  );
  out(
    table(
      ['scenario', 'process', 'before', 'preflight', 'probes', 'after', 'probes / baseline'],
      rows.flatMap((row) => [
        [
          row.scenario,
          'harness',
          s(row.phases.before),
          s(row.phases.preflight),
          s(row.phases.requests),
          s(row.phases.after),
          `${(row.phases.requests / (row.barePhases?.requests ?? row.baseline.ms)).toFixed(2)}x`,
        ],
        ...(row.barePhases
          ? [['', 'bare', s(row.barePhases.before), '', s(row.barePhases.requests), s(row.barePhases.after), '']]
          : []),
      ]),
    ),
  );
  for (const row of rows.filter((r) => r.note)) out(`  ${row.scenario}: ${row.note}`);
  out('');
}

function printGrowth(growth: readonly Growth[], out: (line: string) => void): void {
  out(
    'Growth with --runs (fresh reference target each, no proxy); targets: time per request flat or ' +
      'falling, peak memory flat',
  );
  out(
    table(
      ['--runs', 'requests', 'wall', 'per request', 'run time per request', 'CPU per request', 'peak RSS', 'exit'],
      growth.map((g) => [
        String(g.runs),
        String(g.requests),
        s(g.run.wallMs),
        `${(g.run.wallMs / g.requests).toFixed(2)} ms`,
        g.run.report ? `${(g.run.report.durationMs / g.requests).toFixed(2)} ms` : 'n/a',
        `${(g.run.cpuMs / g.requests).toFixed(2)} ms`,
        `${(g.run.peakRss / 2 ** 20).toFixed(0)} MiB`,
        String(g.run.code),
      ]),
    ),
  );
  out('');
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** Splits a run's wall time at its first request, its first probe (after `preflight` requests) and its last request. */
function phasesOf(run: ProcessRun, arrivalsAt: readonly number[], preflight: number): Phases {
  if (arrivalsAt.length === 0) return { before: run.wallMs, preflight: 0, requests: 0, after: 0 };
  const first = arrivalsAt[0]! - run.startedAt;
  const firstProbe = (arrivalsAt[Math.min(preflight, arrivalsAt.length - 1)] ?? arrivalsAt[0]!) - run.startedAt;
  const last = arrivalsAt.at(-1)! - run.startedAt;
  return { before: first, preflight: firstProbe - first, requests: last - firstProbe, after: run.wallMs - last };
}

/** How many requests the run's preflight sent, from its line (`preflight: ... (3 GET requests)`). */
function preflightRequests(run: ProcessRun): number {
  return Number(/^preflight: .*\((\d+) GET requests?\)$/m.exec(run.output)?.[1] ?? 0);
}

function arrivals(proxies: readonly RecordingProxy[]): ProxiedRequest[] {
  return proxies.flatMap((proxy) => proxy.recorded).sort((a, b) => a.at - b.at);
}

function proxiesFor(
  target: ReferenceTarget,
  options: { readonly record: boolean; readonly delayMs: number },
): Promise<RecordingProxy[]> {
  return Promise.all([target.managementUrl, target.alertsUrl].map((url) => startProxy(url, options)));
}

/**
 * The settings that point a run at a started reference target through `management` and `alerts` (proxies or the target
 * itself).
 */
function targetEnv(
  target: ReferenceTarget,
  [management, alerts]: ReadonlyArray<{ readonly url: string }>,
): Record<string, string> {
  return {
    MANAGEMENT_BASE_URL: management!.url,
    MANAGEMENT_KEY_ID: target.managementKeyId,
    MANAGEMENT_KEY_SECRET: target.managementKeySecret,
    ORGANIZATION_ID: target.organizationId,
    SERVICE_ID: target.serviceId,
    BACKUP_ID: target.backupId,
    ALERTS_BASE_URL: alerts!.url,
    ALERTS_TOKEN: target.alertsToken,
    ...(target.alertIds[0] ? { ALERT_ID: target.alertIds[0] } : {}),
  };
}

function list<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T[] {
  if (value === undefined) return [...allowed];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !allowed.includes(name as T));
  if (unknown.length > 0) throw new Error(`${flag}: unknown ${unknown.join(', ')}; choose from ${allowed.join(', ')}`);
  return names as T[];
}

function s(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}
