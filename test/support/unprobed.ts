import type { RuleResult } from '../../evidence/finding.ts';
import { RULES } from '../../rules/index.ts';

/**
 * The rules no probe judges yet, wholly or in one of their parts: honestly not judged (never passed) on every run, so a
 * test of what a run judges leaves them out.
 */
export const UNPROBED: ReadonlySet<string> = new Set(
  RULES.filter(
    (rule) => rule.notProbedYet !== undefined || rule.parts?.some((part) => part.notProbedYet !== undefined),
  ).map((rule) => rule.id),
);

/** Flags that leave the rules no probe judges yet out of a run, by choice. */
export const SKIP_UNPROBED: readonly string[] = UNPROBED.size > 0 ? ['--skip-rules', [...UNPROBED].join(',')] : [];

/** A run's verdicts on the rules a probe judges. */
export const judgedRules = (results: readonly RuleResult[]): RuleResult[] =>
  results.filter((result) => !UNPROBED.has(result.rule));
