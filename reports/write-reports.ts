import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { findingsJson } from './findings-json.ts';
import { reportLocations, specCopiesIn } from '../spec/operation-locations.ts';
import { shippedSpecLines } from '../spec/prepared-specs.ts';
import { githubAnnotations } from './github-annotations.ts';
import { htmlReport } from './html-report.ts';
import { jobSummary } from './job-summary.ts';
import { junitXml } from './junit-xml.ts';
import { markdownSummary } from './markdown-summary.ts';
import { sarifLog } from './sarif.ts';

/**
 * Where report writers print, which environment they read (CI summary files, annotations), and a last redaction of all
 * they emit.
 */
export interface ReportIo {
  readonly out: (line: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly redact: (text: string) => string;
}

const FILES: readonly (readonly [string, (report: BaselinedRunReport) => string])[] = [
  ['findings.json', findingsJson],
  ['report.html', htmlReport],
  ['summary.md', markdownSummary],
  ['junit.xml', junitXml],
];

/**
 * Writes every report file of a run into the report directory and returns their paths; appends the job summary to
 * `$GITHUB_STEP_SUMMARY` when set, and prints annotations when `GITHUB_ACTIONS` is `true`. `results.sarif` and the
 * annotations locate a failure at its operation in the same place: the user's spec copy that holds it (named in the
 * environment, see `specCopiesIn`), else the shipped spec when it is inside the working directory, else nowhere.
 */
export async function writeReports(reportDir: string, report: BaselinedRunReport, io: ReportIo): Promise<string[]> {
  const dir = resolve(reportDir);
  await mkdir(dir, { recursive: true });
  const locations = await reportLocations(specCopiesIn(io.env), process.cwd(), await shippedSpecLines());
  const files: typeof FILES = [...FILES, ['results.sarif', (r) => sarifLog(r, locations)]];
  const written = await Promise.all(
    files.map(async ([name, render]) => {
      const file = join(dir, name);
      await writeFile(file, io.redact(render(report)));
      return file;
    }),
  );
  const stepSummary = io.env.GITHUB_STEP_SUMMARY;
  if (stepSummary) await appendFile(stepSummary, `${io.redact(jobSummary(report, io.env))}\n`);
  if (io.env.GITHUB_ACTIONS === 'true')
    for (const line of githubAnnotations(report, locations)) io.out(io.redact(line));
  return written;
}
