import type { RunReport } from '../core/run-report.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

/** Renders the per-rule summary printed at the end of a run. */
export function terminalSummary(report: BaselinedRunReport): string {
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const byRule = new Map<string, RunReport['results'][number][]>();
  for (const result of report.results) byRule.set(result.rule, [...(byRule.get(result.rule) ?? []), result]);
  const width = Math.max(...[...byRule.keys()].map((id) => id.length), 10);
  const lines: string[] = ['', 'Rules:'];
  for (const [rule, results] of byRule) {
    const failed = results.filter((r) => r.outcome === 'failed');
    const passed = results.filter((r) => r.outcome === 'passed');
    const skipped = results.filter((r) => r.outcome === 'skipped');
    const outcome = failed.length > 0 ? 'failed' : passed.length > 0 ? 'passed' : 'skipped';
    const counts = [failed.length && `${failed.length} failed`, passed.length && `${passed.length} passed`, skipped.length && `${skipped.length} skipped`].filter(Boolean).join(', ');
    lines.push(`  ${MARK[outcome]} ${rule.padEnd(width)}  ${counts}`);
    for (const result of failed) lines.push(`      ${known.has(`${result.rule}\u0000${result.operation}`) ? '(known) ' : ''}${result.operation}: ${result.message}`);
    const replay = failed[0]?.findings[0]?.reproduce.command;
    if (replay) lines.push(`      reproduce: ${replay} (curl commands in summary.md and report.html)`);
    if (outcome === 'skipped') lines.push(`      ${[...new Set(skipped.map((r) => r.message))].join('; ')}`);
  }
  for (const error of report.errors) lines.push(`  ! harness error: ${error}`);
  if (report.gate) lines.push(`  ! ${report.gate}`);
  lines.push(...baselineLines(report));
  const { stats } = report;
  lines.push('', `${report.outcome.toUpperCase()}: ${stats.failed} failed, ${stats.passed} passed, ${stats.skipped} skipped (${stats.skippedByChoice} by choice, ${stats.notJudged} not judged) (rule × operation); ${stats.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; seed ${report.seed}`);
  if (report.created.length > 0) lines.push(`Created on the target: ${report.created.length} resource(s), listed in findings.json under "created".`);
  return lines.join('\n');
}

function baselineLines(report: BaselinedRunReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  return [
    '',
    `Baseline ${b.file}: ${b.known.length} known failure(s), ${b.new.length} new, ${b.expired.length} expired, ${b.unexpectedPasses.length} unexpected pass(es).`,
    ...b.new.map((e) => `  new failure: ${e.rule} on ${e.operation}`),
    ...b.expired.map((e) => `  expired on ${e.expires}: ${e.rule} on ${e.operation} (${e.now} now): fix it, or renew or remove the entry`),
    ...b.unexpectedPasses.map((e) => `  passes now, remove the entry: ${e.rule} on ${e.operation}`),
  ];
}
