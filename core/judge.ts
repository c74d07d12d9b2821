import type { Exchange } from './exchange.ts';
import type { CheckContext, Rule, Violation } from './rule.ts';

/** The violations one rule found in one exchange. */
export interface Judgement {
  readonly rule: string;
  readonly violations: readonly Violation[];
}

/** Runs every rule that concerns the exchange's operation and applies to it; a throwing check is a harness bug and propagates. */
export function judge(exchange: Exchange, rules: readonly Rule[], context: CheckContext): Judgement[] {
  return rules
    .filter((rule) => rule.operations.includes(exchange.operationId) && rule.applies(exchange))
    .map((rule) => ({ rule: rule.id, violations: rule.check(exchange, context) }));
}
