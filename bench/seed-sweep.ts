import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RunReport } from '../run/run-report-types.ts';
import { FAULT_NAMES, FAULTS } from '../reference/faults.ts';
import { MODE_NAMES } from '../reference/modes.ts';
import freshBuild from '../test/fresh-build.ts';
import { undeclared } from '../test/support/fault-verdicts.ts';

/**
 * The seed sweep: every reference mode (the clean target among them) on many seeds, each a default run of the command
 * in a worker process; prints the runs that failed and the rule × operation of each failure. A correct mode must
 * pass on every seed, so the count it prints must be 0. `npm run seeds -- --seeds 100 --workers 2`; `--pairs` runs
 * every pair of modes at once instead (`--pairs --seeds 1`); `--faults a,b` runs faults, each of which must fail on
 * every seed, exactly the verdicts it declares (its count is of the seeds where it did not; `--faults all` runs every
 * fault). `--record FILE` writes every run's verdicts (rule × operation × outcome) and request count to FILE, sorted,
 * so that two commits' files can be diffed to show a change of structure left behaviour alone. The runs are the build's
 * command, as the tests' are (built again first where a source is newer): run from the sources, each run would go
 * through vite's transform, about three times as slow.
 */

/** One run of the sweep: a mode (or the clean target) at a seed. */
interface Job {
  readonly mode: string;
  readonly seed: number;
}

/** What a worker sends back for each run. */
interface Outcome extends Job {
  readonly code: number;
  readonly failed: readonly string[];
  /** Every verdict of the run, `rule on operation: outcome`, and its request count (for `--record`). */
  readonly verdicts: readonly string[];
  readonly requests: number;
  /** For a failed run, the lines of its output that name a failure. */
  readonly why: readonly string[];
  readonly ms: number;
}

const CLEAN = 'clean';
/** How a job names a fault of the reference target, which must fail its rules on every seed. */
const FAULT = 'fault:';
const FIRST_SEED = 1;

/** The build's command (`dist/cli/main.js`), which `sweep` made fresh before it started the workers. */
const command = (): Promise<typeof import('../cli/main.ts')> =>
  import(new URL('../dist/cli/main.js', import.meta.url).href);

async function runOne(job: Job): Promise<Outcome> {
  const { main } = await command();
  const reportDir = await mkdtemp(join(tmpdir(), 'seed-sweep-'));
  const started = performance.now();
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const modeArgs =
    job.mode === CLEAN
      ? []
      : job.mode.startsWith(FAULT)
        ? ['--reference-fault', job.mode.slice(FAULT.length)]
        : job.mode.split('+').flatMap((mode) => ['--reference-mode', mode]);
  try {
    // In the worker's own thread, as the tests' many runs are: a run thread of its own per run would load and compile
    // the harness afresh each time, nearly half a run's CPU.
    const code = await main(['--report-dir', reportDir, '--seed', String(job.seed), ...modeArgs], {}, io, {
      inThisThread: true,
    });
    const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport;
    const failed = report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.rule} on ${r.operationId}`);
    const verdicts = report.results.map((r) => `${r.rule} on ${r.operationId}: ${r.outcome}`).sort();
    const requests = report.stats.requests;
    const why = code === 0 ? [] : lines.flatMap((text) => text.split('\n')).filter((line) => /^\s*[✗!]/.test(line));
    return { ...job, code, failed, verdicts, requests, why, ms: performance.now() - started };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

/**
 * How a run went other than it must, or undefined: a mode's run must exit 0; a fault's must exit 1 and fail exactly
 * the verdicts the fault declares (`sometimes` ones aside), as the fault matrix requires on the fault's own seed.
 */
function deviation(outcome: Outcome): string | undefined {
  const failures = outcome.failed.length ? `: ${outcome.failed.join(', ')}` : '';
  if (!outcome.mode.startsWith(FAULT)) return outcome.code === 0 ? undefined : `exit ${outcome.code}${failures}`;
  const fault = FAULTS.find((one) => one.name === outcome.mode.slice(FAULT.length));
  if (!fault) return 'no fault of that name';
  if (outcome.code !== 1) return `exit ${outcome.code}, not 1${failures}`;
  const { missed, extra } = undeclared(fault, outcome.failed);
  const parts = [
    ...(missed.length ? [`declared but not failed: ${missed.join(', ')}`] : []),
    ...(extra.length ? [`failed but not declared: ${extra.join(', ')}`] : []),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * A worker: runs each job it is sent and sends back its outcome; the sweep sends the next job to whichever worker
 * reported, so that a worker given slow modes does not hold the sweep up. It ends when told `stop` (after the run under
 * way, if any).
 */
async function worker(): Promise<void> {
  let running = false;
  let stop = false;
  process.on('message', (message: Job | 'stop') => {
    if (message === 'stop') {
      stop = true;
      if (!running) process.exit(0);
      return;
    }
    running = true;
    void runOne(message).then((outcome) => {
      running = false;
      process.send?.(outcome);
      if (stop) process.exit(0);
    });
  });
}

/** The sweep's flags; throws on one it does not know, or a value missing. */
function sweepArgs(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    options: {
      seeds: { type: 'string', default: '100' },
      workers: { type: 'string', default: '2' },
      modes: { type: 'string' },
      pairs: { type: 'boolean', default: false },
      faults: { type: 'string' },
      record: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }).values;
}

const USAGE =
  'npm run seeds -- [--seeds 100] [--workers 2] [--modes a,b | --pairs] [--faults a,b | --faults all] [--record FILE]';

async function sweep(args: readonly string[]): Promise<number> {
  let values: ReturnType<typeof sweepArgs>;
  try {
    values = sweepArgs(args);
  } catch (error) {
    console.error(`seed-sweep: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const seeds = Number(values.seeds);
  const workers = Number(values.workers);
  if (!Number.isInteger(seeds) || seeds < 1 || !Number.isInteger(workers) || workers < 1) {
    console.error('seed-sweep: --seeds and --workers take positive integers (e.g. --seeds 100 --workers 2)');
    return 2;
  }
  const named = values.modes ? values.modes.split(',') : [CLEAN, ...MODE_NAMES];
  // With --pairs, every pair of the modes at once (`a+b`), the slow one aside.
  const single = named.filter((mode) => mode !== CLEAN && mode !== 'slow');
  const faults = values.faults
    ? (values.faults === 'all' ? FAULT_NAMES : values.faults.split(',')).map((fault) => `${FAULT}${fault}`)
    : [];
  const asked = values.modes !== undefined || faults.length === 0;
  const modes = [
    ...(values.pairs ? single.flatMap((a, i) => single.slice(i + 1).map((b) => `${a}+${b}`)) : asked ? named : []),
    ...faults,
  ];
  // Seed by seed, every mode on each: a sweep stopped early (Ctrl-C prints what it finished) covers every mode alike.
  const jobs = Array.from({ length: seeds }, (_, i) => modes.map((mode) => ({ mode, seed: FIRST_SEED + i }))).flat();
  freshBuild();
  console.log(`seed sweep: ${modes.length} modes × ${seeds} seeds = ${jobs.length} default runs, ${workers} worker(s)`);
  const started = performance.now();
  const outcomes: Outcome[] = [];
  const self = fileURLToPath(import.meta.url);
  const children: ReturnType<typeof fork>[] = [];
  let stopped = false;
  let next = 0;
  // The next job to the worker that asks, or `stop` when none is left (or the sweep was stopped).
  const dispatch = (child: ReturnType<typeof fork>): void => {
    const job = stopped ? undefined : jobs[next];
    if (job) next += 1;
    child.send(job ?? 'stop');
  };
  process.once('SIGINT', () => {
    stopped = true;
    console.log('\nstopping after the runs under way; then what finished follows');
    for (const child of children) if (child.connected) child.send('stop');
  });
  await Promise.all(
    Array.from({ length: workers }, () => {
      const child = fork(self, ['--worker'], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        // Its own process group: a Ctrl-C reaches the sweep alone, which lets each worker finish the run under way.
        detached: true,
      });
      children.push(child);
      child.on('message', (outcome: Outcome) => {
        outcomes.push(outcome);
        const off = deviation(outcome);
        if (off) {
          console.log(`  ✗ ${outcome.mode} --seed ${outcome.seed}: ${off}`);
          if (!outcome.mode.startsWith(FAULT)) for (const line of outcome.why) console.log(`      ${line.trim()}`);
        }
        if (outcomes.length % 50 === 0)
          console.log(
            `  … ${outcomes.length}/${jobs.length} runs, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
        if (!stopped) dispatch(child);
      });
      dispatch(child);
      return new Promise<void>((resolve) => child.on('exit', () => resolve()));
    }),
  );
  const isFault = (o: Outcome): boolean => o.mode.startsWith(FAULT);
  const off = outcomes.filter((o) => deviation(o) !== undefined);
  console.log('\nmode                      runs  failed  rule × operation (seeds)');
  for (const mode of modes) {
    const mine = outcomes.filter((o) => o.mode === mode);
    const byPair = new Map<string, number[]>();
    for (const o of mine) for (const pair of o.failed) byPair.set(pair, [...(byPair.get(pair) ?? []), o.seed]);
    const pairs = [...byPair].map(([pair, at]) => `${pair} (${at.sort((a, b) => a - b).join(' ')})`).join('; ');
    // A mode's runs that failed; a fault's that did not fail exactly as it declares.
    const failing = mine.filter((o) => deviation(o) !== undefined).length;
    console.log(`${mode.padEnd(24)} ${String(mine.length).padStart(5)}  ${String(failing).padStart(6)}  ${pairs}`);
  }
  const lost = jobs.length - outcomes.length;
  const done = new Set(outcomes.map((o) => `${o.mode} ${o.seed}`));
  const firstOpen = jobs.find((job) => !done.has(`${job.mode} ${job.seed}`))?.seed;
  const whole = firstOpen === undefined ? seeds : firstOpen - FIRST_SEED;
  const count = (which: (o: Outcome) => boolean) => `${off.filter(which).length} of ${outcomes.filter(which).length}`;
  console.log(
    `\n${count((o) => !isFault(o))} runs of modes failed; ${count(isFault)} runs of faults did not fail exactly as ` +
      `declared${lost ? `; ${lost} did not report` : ''} ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s)${stopped ? '; stopped early' : ''}; ` +
      `every mode ran seeds ${FIRST_SEED} to ${FIRST_SEED + whole - 1}`,
  );
  if (values.record) {
    const byJob = (a: Job, b: Job) => a.mode.localeCompare(b.mode) || a.seed - b.seed;
    const records = [...outcomes].sort(byJob).map(({ mode, seed, code, requests, verdicts }) => ({
      mode,
      seed,
      code,
      requests,
      verdicts,
    }));
    await writeFile(values.record, `${JSON.stringify(records, null, 1)}\n`);
    console.log(`verdicts of ${records.length} runs written to ${values.record}`);
  }
  return off.length === 0 && lost === 0 ? 0 : 1;
}

if (process.argv.includes('--worker')) await worker();
else process.exitCode = await sweep(process.argv.slice(2));
