import type { RunReport } from '../run/run-report-types.ts';

/**
 * With `--require-judged`, fails a run in which a selected rule could not be judged on an operation; skips by choice
 * never fail it.
 */
export function applyJudgedGate<T extends RunReport>(report: T, requireJudged: boolean): T {
  const { notJudged } = report.stats;
  if (!requireJudged || notJudged === 0 || report.outcome === 'error' || report.outcome === 'interrupted')
    return report;
  return {
    ...report,
    outcome: 'failed',
    gate:
      `--require-judged: ${notJudged} selected rule × operation verdict(s) could not be judged (budget, ` +
      'time, a missing resource or no evidence); see the skipped results',
  };
}
