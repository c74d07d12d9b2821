import type { BaselinedRunReport } from './baseline-comparison.ts';

/** What a run with a baseline file that does not exist yet did: every report says it beside the file's name. */
export const ABSENT_BASELINE =
  'the file does not exist yet, so no failure is known and each one counts as new (a run with --update-baseline ' +
  'writes it from its failures; commit it to accept them).';

/** The verdict as a person reads it: with a baseline, "PASSED against the baseline: 0 new, 1 known". */
export function verdictWords(report: BaselinedRunReport): string {
  const verdict = report.interrupted
    ? `INTERRUPTED by ${report.interrupted}, before the run finished`
    : report.outcome.toUpperCase();
  const b = report.baseline;
  return b ? `${verdict} against the baseline: ${b.new.length} new, ${b.known.length} known` : verdict;
}
