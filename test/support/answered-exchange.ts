import type { CheckContext } from '../../rule-model/rule.ts';
import type { Operation, Specs } from '../../spec/spec.ts';
import { createValidators } from '../../spec/validators.ts';
import type { Probe } from '../../core/probe-types.ts';
import type { Exchange } from '../../transport/exchange.ts';

/** A request of `operation` with body `sent`, answered 200 with `payload` in its API's envelope. */
export function answeredExchange(
  operation: Operation,
  sent: unknown,
  payload: unknown,
  probe: Probe,
  params: Readonly<Record<string, string>> = {},
): Exchange {
  const body =
    operation.api === 'management'
      ? { status: 200, requestId: '00000000-0000-4000-8000-000000000000', result: payload }
      : { data: payload };
  return {
    api: operation.api,
    operation: operation.key,
    operationId: operation.operationId,
    probe,
    request: {
      method: operation.method.toUpperCase(),
      url: 'http://127.0.0.1:1/x',
      headers: {},
      auth: 'default',
      params: { ...params },
      query: {},
      json: sent,
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(body),
      json: body,
      durationMs: 1,
    },
  };
}

/** What a rule's check is given beside the exchange, for one operation of `specs`. */
export function checkContext(operation: Operation, specs: Specs): CheckContext {
  return { operation, specs, validators: createValidators() };
}
