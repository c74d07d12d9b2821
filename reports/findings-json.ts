import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../core/run-report.ts';

/** Writes `findings.json`, the machine-readable result of a run, into the report directory. */
export async function writeFindingsJson(reportDir: string, report: RunReport): Promise<string> {
  await mkdir(reportDir, { recursive: true });
  const file = join(reportDir, 'findings.json');
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
