import type { RuleResult } from '../evidence/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { causesOf } from './causes.ts';
import type { RuleCatalogue } from './rule-catalogue.ts';

/**
 * A run's failed results in the order of their worst cause (a leaked secret first, as `causesOf` ranks them), then
 * as the run listed them.
 */
export function failuresWorstFirst(report: BaselinedRunReport, catalogue: RuleCatalogue): RuleResult[] {
  const rank = new Map<string, number>();
  causesOf(report, catalogue).forEach((cause, index) => {
    for (const o of cause.operations) {
      const key = `${cause.rule}\u0000${o.operation}`;
      if (!rank.has(key)) rank.set(key, index);
    }
  });
  const rankOf = (r: RuleResult): number => rank.get(`${r.rule}\u0000${r.operation}`) ?? Number.MAX_SAFE_INTEGER;
  return report.results
    .filter((r) => r.outcome === 'failed')
    .map((result, index) => ({ result, index }))
    .sort((a, b) => rankOf(a.result) - rankOf(b.result) || a.index - b.index)
    .map((x) => x.result);
}
