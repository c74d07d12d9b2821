import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../run/run-report-types.ts';

/** A run of the `conformance` command inside the test process: its exit code, output and findings. */
export interface InProcessRun {
  readonly code: number;
  /** What it printed, standard output and error interleaved as printed. */
  readonly output: string;
  /** Its standard output alone, and its standard error alone. */
  readonly stdout: string;
  readonly stderr: string;
  readonly report: RunReport;
  readonly reportDir: string;
}

/**
 * The command of the build (dist/, which test/fresh-build.ts keeps as new as the sources): vitest's worker there
 * loads the harness as one bundle, as a user's run does, which costs a run about a fifth less than the TypeScript
 * source through vite.
 */
const { main } = (await import(
  new URL('../../dist/cli/main.js', import.meta.url).href
)) as typeof import('../../cli/main.ts');

/** The build's `main`, for a command that reads what runs of the build wrote (`merge` replays their blob reports). */
export const builtMain = main;

/**
 * Runs the `conformance` command in this process (the same code path as the binary, without its start-up cost). With
 * `inThisThread`, the run sends and judges in this thread, as a run of the sources does, not in a run thread of its
 * own: each new thread loads the harness and compiles it afresh, nearly half a short run's CPU, which the files that
 * run the harness hundreds of times (the fault matrix, the modes) save.
 */
export async function runInProcess(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  { inThisThread = false }: { readonly inThisThread?: boolean } = {},
): Promise<InProcessRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  const lines: { readonly line: string; readonly err: boolean }[] = [];
  const io = {
    out: (line: string) => lines.push({ line, err: false }),
    err: (line: string) => lines.push({ line, err: true }),
  };
  const code = await main(['--report-dir', reportDir, ...args], env, io, inThisThread ? { inThisThread } : {});
  const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport;
  const text = (which: (err: boolean) => boolean): string =>
    lines
      .filter(({ err }) => which(err))
      .map(({ line }) => line)
      .join('\n');
  return { code, output: text(() => true), stdout: text((err) => !err), stderr: text((err) => err), report, reportDir };
}

/** The ids of the rules that failed on at least one operation, sorted. */
export function failedRules(report: RunReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.rule))].sort();
}
