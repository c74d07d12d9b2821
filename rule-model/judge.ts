import type { Exchange } from '../transport/exchange.ts';
import { concerns, evidencePart, type CheckContext, type Rule, type RuleMemories, type Violation } from './rule.ts';

/** The violations one rule found in one exchange, and the part of the rule the exchange is evidence for. */
export interface Judgement {
  readonly rule: string;
  readonly part?: string;
  readonly violations: readonly Violation[];
}

/**
 * Runs every rule that concerns the exchange's operation and applies to it (of those its probe is judged by, when it
 * names them), each with its memory of the run; a throwing check is a harness bug and propagates.
 */
export function judge(
  exchange: Exchange,
  rules: readonly Rule[],
  context: CheckContext,
  memories?: RuleMemories,
): Judgement[] {
  return rules
    .filter(
      (rule) =>
        concerns(rule, context.operation) &&
        (exchange.probe.judgedBy?.includes(rule.id) ?? true) &&
        rule.applies(exchange),
    )
    .map((rule) => {
      const part = evidencePart(rule, exchange);
      return {
        rule: rule.id,
        ...(part === undefined ? {} : { part }),
        violations: rule.check(exchange, context, memories?.get(rule.id)),
      };
    });
}
