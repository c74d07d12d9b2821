import type { RunConfig } from '../../core/config.ts';
import type { RuleResult } from '../../core/finding.ts';
import { renderFinding } from '../../core/finding.ts';
import type { Ledger } from '../../core/ledger.ts';

/** Why a probe group did not run: its class is not allowed, or its API is not configured. */
export interface GroupSkip {
  readonly group: string;
  readonly operations: readonly string[];
  readonly reason: string;
}

/** Decides one rule on one operation from the ledger: failed on any violation, passed on checks, else skipped with the reason. */
export function verdict(config: RunConfig, ledger: Ledger, skips: readonly GroupSkip[], rule: string, operationId: string, operation: string): RuleResult {
  const base = { rule, operation, operationId, checks: 0, violations: 0, findings: [] };
  if (!config.rules.includes(rule)) return { ...base, outcome: 'skipped', message: 'not selected (--rules / --skip-rules)' };
  const tallyOf = ledger.tallies[operation]?.[rule];
  if (tallyOf && tallyOf.violations > 0) {
    const more = tallyOf.violations > tallyOf.findings.length ? ` (and ${tallyOf.violations - tallyOf.findings.length} more)` : '';
    return {
      ...base,
      outcome: 'failed',
      checks: tallyOf.checks,
      violations: tallyOf.violations,
      findings: tallyOf.findings,
      message: `${tallyOf.violations} violation(s) in ${tallyOf.checks} check(s)${more}: ${tallyOf.findings.map(renderFinding).join('; ')}`,
    };
  }
  if (tallyOf && tallyOf.checks > 0) return { ...base, outcome: 'passed', checks: tallyOf.checks, message: `${tallyOf.checks} check(s), no violation` };
  const reasons = [...new Set(skips.filter((s) => s.operations.includes(operationId)).map((s) => s.reason))];
  if (reasons.length > 0) return { ...base, outcome: 'skipped', message: reasons.join('; ') };
  const statuses = ledger.coverage[operation]?.statuses ?? {};
  const seen = Object.entries(statuses).map(([s, n]) => `${s}×${n}`).join(', ') || 'no request';
  return { ...base, outcome: 'skipped', message: `no exchange to judge (responses seen: ${seen})` };
}
