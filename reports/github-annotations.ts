import type { RuleResult } from '../core/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { operationName } from './operation-name.ts';

/**
 * GitHub Actions workflow commands for a run: an `::error` per failure (a `::warning` for one the baseline
 * accepts), an `::error` per expired baseline entry and a `::notice` per unexpected pass.
 */
export function githubAnnotations(report: BaselinedRunReport): string[] {
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const failures = report.results.filter((r) => r.outcome === 'failed').map((r) => command(known.has(`${r.rule}\u0000${r.operation}`) ? 'warning' : 'error', r.rule, failureText(r)));
  const expired = (report.baseline?.expired ?? []).map((e) =>
    command(
      'error',
      `baseline: ${e.rule}`,
      `${operationName(e)}: the baseline entry expired on ${e.expires} (now ${e.now}); fix the failure, or renew or remove the entry in ${report.baseline!.file}`,
    ),
  );
  const stale = (report.baseline?.unexpectedPasses ?? []).map((e) => command('notice', `baseline: ${e.rule}`, `${operationName(e)}: passes now; remove its entry from ${report.baseline!.file}`));
  const errors = report.errors.map((e) => command('error', 'conformance harness error', e));
  return [...failures, ...expired, ...stale, ...errors];
}

function failureText(result: RuleResult): string {
  const reproduce = result.findings[0]?.reproduce;
  return [`${operationName(result)}: ${result.message}`, ...(reproduce ? [`Reproduce (seed ${reproduce.seed}): ${reproduce.curl}`] : [])].join('\n');
}

function command(level: 'error' | 'warning' | 'notice', title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
