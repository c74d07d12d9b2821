import type { RunConfig } from '../settings/config.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Operation, Specs } from '../spec/spec.ts';
import type { Validators } from '../spec/validators.ts';
import type { SecretRegistry } from '../secrets/secret-registry.ts';

/** Whether a document states a rule, or every user would expect it where the documents are silent. */
export type Basis = 'stated' | 'inferred';

/** One thing a response does against a rule: where, what was expected, what was there. */
export interface Violation {
  /** JSON pointer into the response body (`/result/id`), or `header:name`, or `` for the whole response. */
  readonly path: string;
  readonly expected: string;
  readonly actual?: unknown;
  /** Lines that say why, where one expected value cannot (the orders of writes sent at once tried, say). */
  readonly explanation?: readonly string[];
}

/** What a check may consult beside the exchange itself and its rule's memory of the run. */
export interface CheckContext {
  readonly operation: Operation;
  /** The loaded specs, for what their schemas mark (the secret fields, say). */
  readonly specs: Specs;
  readonly validators: Validators;
  /** True for a second look at an exchange already recorded (the shrinker's): what it added to a memory is not news. */
  readonly again?: boolean;
}

/** How severe a violation is, worst first: a leaked secret, accepted credentials, a 5xx or no answer, the rest. */
export type Severity = 'secret' | 'credentials' | 'server' | 'contract';

/** The severities, worst first. */
export const SEVERITY_ORDER: readonly Severity[] = Object.freeze(['secret', 'credentials', 'server', 'contract']);

/** What a rule's memory is made from: the run's settings, its specs, its one registry of secrets (the session's). */
export interface RunMemoryContext {
  readonly config: RunConfig;
  readonly specs: Specs;
  readonly secrets?: SecretRegistry;
}

/**
 * What a rule keeps of a run (the secrets sent, the requestIds seen), made once per run: `sent` adds what an exchange's
 * request carries before the exchange is judged, `answered` what its response carries after.
 */
export interface RuleMemory<M> {
  create(run: RunMemoryContext): M;
  sent?(memory: M, exchange: Exchange, specs: Specs): void;
  answered?(memory: M, exchange: Exchange): void;
}

/**
 * One part of a rule that must run and give evidence before the rule can pass (each half of a paired rule, each form).
 */
export interface RulePart {
  readonly name: string;
  /** The operations the part concerns; all of the rule's when absent. */
  readonly operations?: OperationSelector;
  /** Why no probe gives this part evidence yet, where none does: the rule is then never passed, and says so. */
  readonly notProbedYet?: string;
}

/**
 * The operations a rule (or a part of one) concerns: operationIds, or every operation of the specs (`every`), or every
 * operation of the APIs whose envelope carries a request id (`every` with `enveloped`), or every operation whose path
 * has a parameter (`pathParameter`, with the operationIds of `also`). A selector is resolved against the loaded specs,
 * so that an operation added to a spec is judged by every general rule, and scope-checked when its path names a scope.
 */
export type OperationSelector =
  | readonly string[]
  | { readonly every: true; readonly enveloped?: true }
  | { readonly pathParameter: string; readonly also?: readonly string[] };

/** What a selector needs to know of an operation. */
export type SelectedOperation = Pick<Operation, 'operationId' | 'envelope' | 'path'>;

/** Every operation of the specs. */
export const EVERY_OPERATION: OperationSelector = Object.freeze({ every: true });

/** Every operation of an API whose envelope carries a request id. */
export const EVERY_ENVELOPED_OPERATION: OperationSelector = Object.freeze({ every: true, enveloped: true });

/** Every operation whose path has the parameter `{name}`, and the operations `also` names. */
export function withPathParameter(name: string, also: readonly string[] = []): OperationSelector {
  return Object.freeze({ pathParameter: name, ...(also.length > 0 ? { also: Object.freeze([...also]) } : {}) });
}

/** True when a selector selects an operation. */
export function selects(selector: OperationSelector, operation: SelectedOperation): boolean {
  if (isOperationList(selector)) return selector.includes(operation.operationId);
  if ('pathParameter' in selector)
    return (
      operation.path.includes(`{${selector.pathParameter}}`) || (selector.also ?? []).includes(operation.operationId)
    );
  return !selector.enveloped || operation.envelope.requestId !== undefined;
}

/** The operationIds a selector names itself (its list, or `also`), which must be operations of the specs. */
export function namedOperations(selector: OperationSelector): readonly string[] {
  if (isOperationList(selector)) return selector;
  return 'pathParameter' in selector ? (selector.also ?? []) : [];
}

/** True when a rule concerns an operation. */
export function concerns(rule: Pick<Rule, 'operations'>, operation: SelectedOperation): boolean {
  return selects(rule.operations, operation);
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
  /**
   * How severe its violations are: `secret`, `credentials`, `server`; else `contract`, or `server` for a violation
   * seen on a 5xx or on no answer.
   */
  readonly severity?: Exclude<Severity, 'contract'>;
  /**
   * Why no probe judges this rule yet, where none does: its verdict is then `skipped` (not judged) with this reason on
   * every operation, never `passed`, and no fault may claim it.
   */
  readonly notProbedYet?: string;
  /** What it keeps of the run, which its check is handed (the run's session makes it). */
  readonly memory?: RuleMemory<unknown>;
  /** Whether an exchange is evidence for this rule. */
  applies(exchange: Exchange): boolean;
  /** Every violation of this rule in the exchange, given its memory of the run if it keeps one; empty when it holds. */
  check(exchange: Exchange, context: CheckContext, memory?: unknown): Violation[];
}

/** A rule that keeps a memory of the run, with the memory's type and its check's kept together. */
export function rememberingRule<M>(
  rule: Omit<Rule, 'memory' | 'check'> & {
    readonly memory: RuleMemory<M>;
    check(exchange: Exchange, context: CheckContext, memory: M): Violation[];
  },
): Rule {
  return rule as Rule;
}

/** Each rule's memory of a run, by rule id, for the rules that keep one. */
export type RuleMemories = ReadonlyMap<string, unknown>;

/** Fresh memories of a run for the rules that keep one. */
export function createMemories(rules: readonly Rule[], run: RunMemoryContext): RuleMemories {
  return new Map(rules.flatMap((rule) => (rule.memory ? [[rule.id, rule.memory.create(run)] as const] : [])));
}

/** The parts a rule needs on one operation: its declared parts there, or its one implicit part. */
export function partsOn(rule: Rule, operation: SelectedOperation): readonly string[] {
  if (!rule.parts) return [WHOLE_RULE];
  return rule.parts.filter((part) => !part.operations || selects(part.operations, operation)).map((part) => part.name);
}

/** The name of the one part of a rule that declares none. */
export const WHOLE_RULE = 'any exchange it applies to';

/** The part an exchange is evidence for under a rule, or undefined when it is no evidence. */
export function evidencePart(rule: Rule, exchange: Exchange): string | undefined {
  if (exchange.probe.evidence === false) return undefined;
  return rule.partOf ? rule.partOf(exchange) : WHOLE_RULE;
}

/** A rule of RULES.md that no probe judges yet: it applies to no exchange, and says why it is not judged. */
export function notProbedYet(
  rule: Omit<Rule, 'applies' | 'check' | 'notProbedYet' | 'parts' | 'partOf' | 'memory'>,
  reason: string,
): Rule {
  return { ...rule, notProbedYet: reason, applies: () => false, check: () => [] };
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
    if (isOperationList(rule.operations) && rule.operations.length === 0)
      throw new Error(`Rule ${rule.id} concerns no operation.`);
    if (rule.parts && !rule.partOf) throw new Error(`Rule ${rule.id} names parts but no partOf.`);
    if (rule.notProbedYet !== undefined && !rule.notProbedYet.trim())
      throw new Error(`Rule ${rule.id} is not probed yet but says not why.`);
  }
  return Object.freeze(rules.map((rule) => Object.freeze({ ...rule })));
}
