import type { BaselinedRunReport } from './baseline-comparison.ts';
import { markdownSummary } from './markdown-summary.ts';

/** GitHub's limit on what a step appends to `$GITHUB_STEP_SUMMARY` (1 MiB): past it, the step's summary is dropped. */
export const STEP_SUMMARY_LIMIT = 1024 * 1024;

/** What the job summary may take of that limit, leaving room for what other commands of the same step append. */
export const JOB_SUMMARY_BUDGET = STEP_SUMMARY_LIMIT / 2;

/** Rows of each list that a summary tries first, then fewer until it fits the budget. */
const ROW_STEPS: readonly number[] = [100, 50, 25, 10, 5, 0];

/**
 * The Markdown a CI job shows first: the run's summary (outcome, failures worst first with their minimal examples, what
 * was not judged and why) with links to the run's reports artifact and code-scanning alerts when GitHub's variables
 * say where they are, listing fewer rows until it fits JOB_SUMMARY_BUDGET bytes.
 */
export function jobSummary(report: BaselinedRunReport, env: Readonly<Record<string, string | undefined>>): string {
  const links = reportLinks(env);
  for (const maxRows of ROW_STEPS) {
    const text = markdownSummary(report, { links, maxRows });
    if (Buffer.byteLength(text) <= JOB_SUMMARY_BUDGET) return text;
  }
  const text = markdownSummary(report, { links, maxRows: 0 });
  const note = '\n\n… cut to fit the job summary: findings.json and summary.md in the reports hold all of it.\n';
  return `${Buffer.from(text)
    .subarray(0, JOB_SUMMARY_BUDGET - Buffer.byteLength(note))
    .toString('utf8')
    .replace(/\uFFFD$/, '')}${note}`;
}

/** Where the run's reports are on GitHub: this workflow run's artifacts, and the repository's code-scanning alerts. */
function reportLinks(env: Readonly<Record<string, string | undefined>>): string[] {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  if (!server || !repository || !runId) return [];
  const run = `${server}/${repository}/actions/runs/${runId}#artifacts`;
  const alerts = `${server}/${repository}/security/code-scanning?query=tool%3Acontract-conformance`;
  return [
    `Reports (findings.json, report.html, results.sarif, junit.xml): [this run's artifacts](${run}); ` +
      `the failures as code-scanning alerts, once results.sarif is uploaded: [code scanning](${alerts}).`,
  ];
}
