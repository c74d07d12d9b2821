import type { Exchange } from './exchange.ts';
import type { SecretLookup } from './secret-index.ts';
import type { Operation } from './spec.ts';
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
  readonly validators: Validators;
  /** Every secret value sent so far in the run. */
  readonly secrets: SecretLookup;
  /** Every `requestId` seen before this exchange. */
  readonly seenRequestIds: ReadonlySet<string>;
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
  /** operationIds of the operations it concerns. */
  readonly operations: readonly string[];
  /** Whether an exchange is evidence for this rule. */
  applies(exchange: Exchange): boolean;
  /** Every violation of this rule in the exchange; empty when it holds. */
  check(exchange: Exchange, context: CheckContext): Violation[];
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
    if (rule.operations.length === 0) throw new Error(`Rule ${rule.id} concerns no operation.`);
  }
  return Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
}
