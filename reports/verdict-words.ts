import type { BaselinedRunReport } from './baseline-comparison.ts';

/** The verdict as a person reads it: with a baseline, "PASSED against the baseline: 0 new, 1 known". */
export function verdictWords(report: BaselinedRunReport): string {
  const verdict = report.interrupted
    ? `INTERRUPTED by ${report.interrupted}, before the run finished`
    : report.outcome.toUpperCase();
  const b = report.baseline;
  return b ? `${verdict} against the baseline: ${b.new.length} new, ${b.known.length} known` : verdict;
}
