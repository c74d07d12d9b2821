import type { Exchange } from './exchange.ts';
import type { SecretLookup } from './secret-index.ts';
import type { Operation, Specs } from './spec.ts';
import type { Validators } from './validators.ts';

/** Whether a document states a rule, or every user would expect it where the documents are silent. */
export type Basis = 'stated' | 'inferred';

/** One thing a response does against a rule: where, what was expected, what was there. */
export interface Violation {
  /** JSON pointer into the response body (`/result/id`), or `header:name`, or `` for the whole response. */
  readonly path: string;
  readonly expected: string;
  readonly actual?: unknown;
}

/** What a check may consult beside the exchange itself. */
export interface CheckContext {
  readonly operation: Operation;
  /** The loaded specs, for what their schemas mark (the secret fields, say). */
  readonly specs: Specs;
  readonly validators: Validators;
  /** Every secret value sent so far in the run. */
  readonly secrets: SecretLookup;
  /** Every `requestId` seen before this exchange. */
  readonly seenRequestIds: ReadonlySet<string>;
}

/** One part of a rule that must run and give evidence before the rule can pass (each half of a paired rule, each form). */
export interface RulePart {
  readonly name: string;
  /** The operations the part concerns (operationIds); all of the rule's when absent. */
  readonly operations?: readonly string[];
}

/**
 * The operations a rule concerns: operationIds, or every operation of the specs (`every`), or every operation of the
 * APIs whose envelope carries a request id (`every` with `enveloped`). A selector is resolved against the loaded
 * specs, so that an operation added to a spec is judged by every general rule.
 */
export type OperationSelector = readonly string[] | { readonly every: true; readonly enveloped?: true };

/** Every operation of the specs. */
export const EVERY_OPERATION: OperationSelector = Object.freeze({ every: true });

/** Every operation of an API whose envelope carries a request id. */
export const EVERY_ENVELOPED_OPERATION: OperationSelector = Object.freeze({ every: true, enveloped: true });

/** True when a rule concerns an operation. */
export function concerns(rule: Pick<Rule, 'operations'>, operation: Pick<Operation, 'operationId' | 'envelope'>): boolean {
  const selector = rule.operations;
  if (isOperationList(selector)) return selector.includes(operation.operationId);
  return !selector.enveloped || operation.envelope.requestId !== undefined;
}

/** True when a selector lists its operations by operationId. */
export function isOperationList(selector: OperationSelector): selector is readonly string[] {
  return Array.isArray(selector);
}

/** The operations of the specs that a rule concerns, in spec order. */
export function operationsOf(rule: Pick<Rule, 'operations'>, operations: readonly Operation[]): Operation[] {
  return operations.filter((operation) => concerns(rule, operation));
}

/** A rule of the contract: its data, the exchanges it judges, and a pure check. */
export interface Rule {
  readonly id: string;
  readonly title: string;
  readonly basis: Basis;
  /** The contract's sentence this rule enforces. */
  readonly sentence: string;
  /** How the harness probes it. */
  readonly probedBy: string;
  /** The operations it concerns. */
  readonly operations: OperationSelector;
  /**
   * The parts that must each give evidence for a pass. A rule with parts is fed only by the probe groups that
   * name it in `feeds`; a rule without parts is judged on every exchange it applies to, from any group.
   */
  readonly parts?: readonly RulePart[];
  /** Which part an exchange is evidence for (required with `parts`); undefined when it is none. */
  partOf?(exchange: Exchange): string | undefined;
  /** Whether an exchange is evidence for this rule. */
  applies(exchange: Exchange): boolean;
  /** Every violation of this rule in the exchange; empty when it holds. */
  check(exchange: Exchange, context: CheckContext): Violation[];
}

/** The parts a rule needs on one operation: its declared parts there, or its one implicit part. */
export function partsOn(rule: Rule, operationId: string): readonly string[] {
  if (!rule.parts) return [WHOLE_RULE];
  return rule.parts.filter((part) => !part.operations || part.operations.includes(operationId)).map((part) => part.name);
}

/** The name of the one part of a rule that declares none. */
export const WHOLE_RULE = 'any exchange it applies to';

/** The part an exchange is evidence for under a rule, or undefined when it is no evidence. */
export function evidencePart(rule: Rule, exchange: Exchange): string | undefined {
  if (exchange.probe.evidence === false) return undefined;
  return rule.partOf ? rule.partOf(exchange) : WHOLE_RULE;
}

/** Freezes a table of rules, refusing duplicate ids and rules without their data. */
export function defineRules(rules: readonly Rule[]): readonly Rule[] {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.id)) throw new Error(`The rule table lists ${rule.id} twice.`);
    seen.add(rule.id);
    for (const field of ['title', 'sentence', 'probedBy'] as const) {
      if (!rule[field]?.trim()) throw new Error(`Rule ${rule.id} has no ${field}.`);
    }
    if (isOperationList(rule.operations) && rule.operations.length === 0) throw new Error(`Rule ${rule.id} concerns no operation.`);
    if (rule.parts && !rule.partOf) throw new Error(`Rule ${rule.id} names parts but no partOf.`);
  }
  return Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
}
