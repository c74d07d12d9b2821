import { isRejection, isSuccess, type Exchange } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';

/** Checks that a probe got what it expected: a 2xx for `accept`, any 4xx or 5xx for `reject`. */
export function intentViolations(exchange: Exchange): Violation[] {
  const status = exchange.response?.status;
  if (status === undefined) return [];
  if (exchange.probe.intent === 'accept' && !isSuccess(exchange)) {
    return [{ path: '', expected: `acceptance (2xx) of ${exchange.probe.label}`, actual: status }];
  }
  if (exchange.probe.intent === 'reject' && !isRejection(exchange)) {
    return [{ path: '', expected: `rejection (4xx) of ${exchange.probe.label}`, actual: status }];
  }
  return [];
}

/** The two halves of a paired rule, judged by the probe's intent: what must be accepted and what must be rejected. */
export function pairedParts(
  accepted: string | undefined,
  rejected: string | undefined,
): Pick<Rule, 'parts' | 'partOf'> {
  return {
    parts: [accepted, rejected].filter((name): name is string => name !== undefined).map((name) => ({ name })),
    partOf: (exchange) =>
      exchange.probe.intent === 'accept' ? accepted : exchange.probe.intent === 'reject' ? rejected : undefined,
  };
}
