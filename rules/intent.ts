import { isRejection, isSuccess, type Exchange } from '../core/exchange.ts';
import type { Violation } from '../core/rule.ts';

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
