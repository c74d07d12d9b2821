import type { Basis, Rule } from '../rule-model/rule.ts';
import { statementsJudgedBy } from '../spec/traceability.ts';
import { RULES } from '../rules/index.ts';
import { TRACE_TABLES } from '../rules/trace-tables.ts';

/** What a report says about a rule: its title, basis, contract sentence, probe and its section of docs/rules.md. */
export interface RuleInfo {
  readonly id: string;
  readonly title: string;
  readonly basis: Basis;
  readonly sentence: string;
  /** How the harness probes the rule. */
  readonly probedBy: string;
  /** `docs/rules.md#anchor`: the rule's section of the catalogue. */
  readonly doc: string;
  /** How severe its violations are, when the rule says (`Rule.severity`). */
  readonly severity?: Rule['severity'];
  /** The statements of the contract documents the rule enforces (docs/traceability.md), id and text. */
  readonly statements: readonly { readonly id: string; readonly text: string }[];
}

/** Looks a rule up by id; undefined for an id the table does not hold (a findings file of another version, say). */
export type RuleCatalogue = (id: string) => RuleInfo | undefined;

/**
 * GitHub's heading anchor of a rule's section in docs/rules.md (its heading is the id in code): lower case, dots
 * dropped.
 */
export function ruleAnchor(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9 _-]/g, '');
}

const BY_ID: ReadonlyMap<string, RuleInfo> = new Map(
  RULES.map((rule) => [
    rule.id,
    Object.freeze({
      id: rule.id,
      title: rule.title,
      basis: rule.basis,
      sentence: rule.sentence,
      probedBy: rule.probedBy,
      doc: `docs/rules.md#${ruleAnchor(rule.id)}`,
      ...(rule.severity ? { severity: rule.severity } : {}),
      statements: statementsJudgedBy(rule.id, Object.values(TRACE_TABLES)),
    }),
  ]),
);

/** The harness's own rule table, as reports read it: the one place where `reports/` reaches into `rules/`. */
export const ruleCatalogue: RuleCatalogue = (id) => BY_ID.get(id);
