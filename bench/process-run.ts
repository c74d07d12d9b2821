import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../run/run-report-types.ts';

const MAX_RSS_PRELOAD = fileURLToPath(new URL('./max-rss.mjs', import.meta.url));
const BARE_SENDER = fileURLToPath(new URL('./bare-sender.mjs', import.meta.url));

/** One whole process, measured from its spawn to its exit. */
export interface ProcessRun {
  readonly code: number;
  /** When it was spawned, on the performance clock (the proxies stamp requests on the same clock) and as epoch ms. */
  readonly startedAt: number;
  readonly startedEpoch: number;
  readonly wallMs: number;
  /** Its peak resident set size, worker threads included, in bytes. */
  readonly peakRss: number;
  /**
   * The CPU time it used, user and system, all threads, in milliseconds: unlike wall time, not stretched by other
   * processes on the machine.
   */
  readonly cpuMs: number;
  readonly output: string;
}

/** A `conformance` run as a whole process, and the report it wrote. */
export interface HarnessRun extends ProcessRun {
  readonly report?: RunReport;
}

/**
 * Spawns `node <harnessDir>/bin/conformance.js` with `args` and only `env` (plus PATH, HOME, TMPDIR), and reads its
 * findings.json.
 */
export async function runHarness(
  harnessDir: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<HarnessRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-bench-'));
  try {
    const run = await runNode(
      [join(harnessDir, 'bin', 'conformance.js'), ...args, '--report-dir', reportDir],
      env,
      reportDir,
    );
    const report = await readFile(join(reportDir, 'findings.json'), 'utf8').then(
      (text) => JSON.parse(text) as RunReport,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      },
    );
    return { ...run, ...(report ? { report } : {}) };
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

/**
 * Spawns `node <harnessDir>/bin/conformance.js` with `args` (a command that writes no report: `--version`,
 * `--dry-run`), or `node -e ''` without a harness.
 */
export async function runCommandOnly(harnessDir: string | undefined, args: readonly string[]): Promise<ProcessRun> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-bench-start-'));
  try {
    return await runNode(
      harnessDir === undefined ? ['-e', ''] : [join(harnessDir, 'bin', 'conformance.js'), ...args],
      {},
      dir,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Spawns the bare process: plain Node sending the requests of `requestsFile` with `concurrency`, nothing judged. */
export async function runBare(requestsFile: string, concurrency: number): Promise<ProcessRun> {
  const dir = await mkdtemp(join(tmpdir(), 'conformance-bench-bare-'));
  try {
    return await runNode([BARE_SENDER, requestsFile, String(concurrency)], {}, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runNode(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  scratch: string,
): Promise<ProcessRun> {
  const rssFile = join(scratch, 'max-rss');
  const startedAt = performance.now();
  const startedEpoch = Date.now();
  const child = spawn(process.execPath, ['--import', MAX_RSS_PRELOAD, ...args], {
    env: { ...inherited(), ...env, BENCH_MAX_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode ?? 1));
  });
  const wallMs = performance.now() - startedAt;
  const [peakRss = 0, cpuMicros = 0] = (await readFile(rssFile, 'utf8')).split(' ').map(Number);
  return {
    code,
    startedAt,
    startedEpoch,
    wallMs,
    peakRss,
    cpuMs: cpuMicros / 1000,
    output: Buffer.concat(chunks).toString('utf8'),
  };
}

/** The few variables of this process a child needs; none that could point a run at a target or change its reports. */
function inherited(): Record<string, string> {
  return Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR'].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]!]])),
  );
}
