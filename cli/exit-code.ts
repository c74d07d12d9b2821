import type { RunReport } from '../run/run-report-types.ts';
import { INTERRUPT_EXIT_CODES } from './interrupts.ts';

/** A run's exit code from its report: 0 passed, 1 failed, 130 or 143 interrupted (by its signal), else 2. */
export function exitCode(report: Pick<RunReport, 'outcome' | 'interrupted'>): number {
  if (report.outcome === 'interrupted') return INTERRUPT_EXIT_CODES[report.interrupted ?? 'SIGINT'];
  return report.outcome === 'passed' ? 0 : report.outcome === 'failed' ? 1 : 2;
}
