import { didYouMean } from '../core/did-you-mean.ts';
import { HarnessError } from '../core/errors.ts';
import { isOperationList, operationsOf, type Rule } from '../rule-model/rule.ts';
import type { Operation } from '../spec/spec.ts';
import { statementsJudgedBy } from '../spec/traceability.ts';
import { TRACE_TABLES } from '../rules/trace-tables.ts';
import { ruleAnchor } from '../reports/rule-catalogue.ts';
import type { FaultSummary } from './rules-doc.ts';

/** What `conformance rules ID` says of a rule: its data, its operations by name and the faults that break it. */
export interface RuleExplanation {
  readonly id: string;
  readonly title: string;
  readonly basis: Rule['basis'];
  readonly sentence: string;
  readonly probedBy: string;
  readonly operations: readonly { readonly operationId: string; readonly operation: string }[];
  readonly faults: readonly { readonly name: string; readonly description: string }[];
  /** The statements of the contract documents the rule enforces (docs/traceability.md). */
  readonly statements: readonly { readonly id: string; readonly text: string }[];
  readonly doc: string;
}

/** Finds a rule by id, or throws CONFIG_INVALID naming the id with a "did you mean". */
export function ruleById(rules: readonly Rule[], id: string): Rule {
  const rule = rules.find((r) => r.id === id);
  if (rule) return rule;
  throw new HarnessError(
    'CONFIG_INVALID',
    `unknown rule ${id}${didYouMean(
      id,
      rules.map((r) => r.id),
    )}: \`conformance rules\` lists the ids.`,
  );
}

/** A rule with its operations (from the specs) and the reference faults that break it. */
export function explainRule(
  rule: Rule,
  operations: readonly Operation[],
  faults: readonly FaultSummary[],
): RuleExplanation {
  return {
    id: rule.id,
    title: rule.title,
    basis: rule.basis,
    sentence: rule.sentence,
    probedBy: rule.probedBy,
    operations: isOperationList(rule.operations)
      ? rule.operations.map((operationId) => ({
          operationId,
          operation: operations.find((op) => op.operationId === operationId)?.key ?? '(not in the specs)',
        }))
      : operationsOf(rule, operations).map((op) => ({ operationId: op.operationId, operation: op.key })),
    faults: faults.filter((f) => f.breaks.includes(rule.id)).map(({ name, description }) => ({ name, description })),
    statements: statementsJudgedBy(rule.id, Object.values(TRACE_TABLES)),
    doc: `docs/rules.md#${ruleAnchor(rule.id)}`,
  };
}

/** Renders a rule's explanation for the terminal. */
export function ruleText(rule: RuleExplanation): string {
  const basis =
    rule.basis === 'stated'
      ? 'stated: a document of the contract says it'
      : 'inferred: the documents are silent, and every user would expect it';
  return [
    `${rule.id}: ${rule.title}`,
    '',
    `Contract (${basis}):`,
    `  ${rule.sentence}`,
    '',
    `Probed by: ${rule.probedBy}.`,
    '',
    `Statements of the contract it enforces (${rule.statements.length}; docs/traceability.md):`,
    ...(rule.statements.length === 0
      ? ['  none: the documents are silent']
      : rule.statements.map((s) => `  ${s.id}: ${s.text}`)),
    '',
    `Operations (${rule.operations.length}):`,
    ...rule.operations.map((o) => `  ${o.operationId} (${o.operation})`),
    '',
    'Reference faults that break it (see the failure with `conformance --reference-fault NAME`):',
    ...(rule.faults.length === 0 ? ['  none'] : rule.faults.map((f) => `  ${f.name}: ${f.description}`)),
    '',
    `More: ${rule.doc}. Run only this rule: conformance --rules ${rule.id}`,
  ].join('\n');
}
