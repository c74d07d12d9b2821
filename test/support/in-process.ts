import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../../core/run-report.ts';

/** A run of the `conformance` command inside the test process: its exit code, output and findings. */
export interface InProcessRun {
  readonly code: number;
  readonly output: string;
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

/** Runs the `conformance` command in this process (the same code path as the binary, without its start-up cost). */
export async function runInProcess(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<InProcessRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  const code = await main(['--report-dir', reportDir, ...args], env, io);
  const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport;
  return { code, output: lines.join('\n'), report, reportDir };
}

/** The ids of the rules that failed on at least one operation, sorted. */
export function failedRules(report: RunReport): string[] {
  return [...new Set(report.results.filter((r) => r.outcome === 'failed').map((r) => r.rule))].sort();
}
