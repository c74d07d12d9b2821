import { APIS } from '../apis/index.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Operation } from '../spec/spec.ts';

/** A JSON object, or undefined for anything else. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The response payload: the property its API's envelope names (`result`, `data`), when it is an object. */
export function payload(exchange: Exchange): Record<string, unknown> | undefined {
  const body = asObject(exchange.response?.json);
  return asObject(body?.[APIS[exchange.api].envelope.payload]);
}

/** The payload's JSON pointer prefix. */
export function payloadPath(exchange: Exchange): string {
  return `/${APIS[exchange.api].envelope.payload}`;
}

/** The request body as a JSON object, when it was one. */
export function requestBody(exchange: Exchange): Record<string, unknown> | undefined {
  return asObject(exchange.request.json);
}

export { sameId } from '../core/sameness.ts';

/** The documented schema of an operation's 200 payload: the property its API's envelope names (`result`, `data`). */
export function payloadSchema(operation: Operation): unknown {
  const schema = asObject(operation.responseSchemas['200']);
  return asObject(schema?.properties)?.[operation.envelope.payload];
}

/** True when the exchange's probe was built for the rule. */
export function probes(exchange: Exchange, ruleId: string): boolean {
  return exchange.probe.rules?.includes(ruleId) === true;
}

/**
 * The top-level fields of a request body that its operation's request schema documents: what an answer may be expected
 * to carry back (a field only the server writes, sent anyway, is `access.read-only-fields`' to judge).
 */
export function documentedProperties(body: Record<string, unknown>, operation: Operation): Record<string, unknown> {
  const properties = asObject(asObject(operation.requestSchema)?.properties);
  return properties ? Object.fromEntries(Object.entries(body).filter(([key]) => key in properties)) : body;
}
