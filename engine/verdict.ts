import type { RunConfig } from '../settings/config.ts';
import { renderFinding, type RuleResult } from '../evidence/finding.ts';
import type { Ledger } from '../evidence/ledger.ts';
import { partsOn, type Rule, type SelectedOperation } from '../rule-model/rule.ts';
import type { Operation } from '../spec/spec.ts';
import type { GroupSkip } from './plan.ts';

/**
 * Decides one rule on one operation from the ledger: failed on any violation; passed only when every part the
 * rule needs there gave evidence; else skipped, naming each missing part and why it did not run.
 */
export function verdict(
  config: RunConfig,
  ledger: Ledger,
  skips: readonly GroupSkip[],
  rule: Rule,
  on: SelectedOperation & Pick<Operation, 'key'>,
): RuleResult {
  const { operationId, key: operation } = on;
  const base = { rule: rule.id, operation, operationId, checks: 0, violations: 0, findings: [] };
  if (!config.rules.includes(rule.id))
    return {
      ...base,
      outcome: 'skipped',
      skipKind: 'by-choice',
      skipReasons: ['not selected (--rules / --skip-rules)'],
      message: 'not selected (--rules / --skip-rules)',
    };
  if (rule.notProbedYet !== undefined)
    return {
      ...base,
      outcome: 'skipped',
      skipKind: 'not-judged',
      skipReasons: [rule.notProbedYet],
      message: `not judged: ${rule.notProbedYet}`,
    };
  const tallyOf = ledger.tallies[operation]?.[rule.id];
  if (tallyOf && tallyOf.violations > 0) {
    const more =
      tallyOf.violations > tallyOf.findings.length ? ` (and ${tallyOf.violations - tallyOf.findings.length} more)` : '';
    const found = tallyOf.findings.map(renderFinding).join('; ');
    return {
      ...base,
      outcome: 'failed',
      checks: tallyOf.checks,
      violations: tallyOf.violations,
      findings: tallyOf.findings,
      message: `${tallyOf.violations} violation(s) in ${tallyOf.checks} check(s)${more}: ${found}`,
    };
  }
  const parts = partsOn(rule, on);
  const missing = parts.filter((part) => !((tallyOf?.parts[part] ?? 0) > 0));
  const checks = tallyOf?.checks ?? 0;
  if (missing.length === 0) {
    const judged = rule.parts
      ? `; every part judged: ${parts.map((part) => `${part} ×${tallyOf!.parts[part]}`).join(', ')}`
      : '';
    return { ...base, outcome: 'passed', checks, message: `${checks} check(s), no violation${judged}` };
  }
  const why = missing.map((part) => ({ part, ...missingPart(ledger, skips, rule, part, operationId, operation) }));
  // A part no probe judges yet is missing from every run: the settings decide the kind of skip where they left out
  // the rest.
  const judgeable = why.filter((w) => !w.unprobed);
  const byChoice = judgeable.length > 0 && judgeable.every((w) => w.byChoice);
  const message = rule.parts
    ? `not judged: ${why.map((w) => `part "${w.part}" ${w.reason}`).join('; ')}`
    : `not judged: ${why[0]!.reason}`;
  return {
    ...base,
    outcome: 'skipped',
    skipKind: byChoice ? 'by-choice' : 'not-judged',
    skipReasons: [...new Set(why.flatMap((w) => w.reasons))],
    checks,
    message,
  };
}

/**
 * Why one part of a rule has no evidence on an operation: no probe gives it evidence yet, the groups that feed it were
 * skipped, the budget ran out, or nothing it could judge came back.
 */
function missingPart(
  ledger: Ledger,
  skips: readonly GroupSkip[],
  rule: Rule,
  part: string,
  operationId: string,
  operation: string,
): { reason: string; reasons: string[]; byChoice: boolean; unprobed?: true } {
  const unprobed = rule.parts?.find((declared) => declared.name === part)?.notProbedYet;
  if (unprobed !== undefined)
    return { reason: `is not probed yet: ${unprobed}`, reasons: [unprobed], byChoice: false, unprobed: true };
  const feeding = skips.filter((skip) => skip.operations.includes(operationId) && feedsPart(skip, rule, part));
  // A group left out by the user's choice explains the rest: a later group found no resource because of it.
  const relevant = feeding.some((skip) => skip.byChoice) ? feeding.filter((skip) => skip.byChoice) : feeding;
  if (relevant.length > 0) {
    const reasons = [...new Set(relevant.map((skip) => skip.reason))];
    return { reason: `did not run: ${reasons.join('; ')}`, reasons, byChoice: relevant.every((skip) => skip.byChoice) };
  }
  const statuses = ledger.coverage[operation]?.statuses ?? {};
  if ((statuses.interrupted ?? 0) > 0)
    return { reason: 'was not sent: the run was interrupted', reasons: ['the run was interrupted'], byChoice: false };
  if ((statuses.budget ?? 0) > 0)
    return {
      reason: 'was cut: the run reached --max-requests or --budget-ms before it was sent',
      reasons: ['the run reached --max-requests or --budget-ms'],
      byChoice: false,
    };
  const seen =
    Object.entries(statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(', ') || 'no request';
  return {
    reason: `gave no evidence: nothing it could judge came back (responses seen: ${seen})`,
    reasons: [`nothing it could judge came back (responses seen: ${seen})`],
    byChoice: false,
  };
}

function feedsPart(skip: GroupSkip, rule: Rule, part: string): boolean {
  if (!rule.parts) return true;
  return (skip.feeds ?? []).some((entry) => entry === rule.id || entry === `${rule.id}#${part}`);
}
