import type { Exchange } from '../transport/exchange.ts';
import { documentedFields, presentFields } from '../spec/field-paths.ts';
import type { FieldTally, Ledger } from './ledger.ts';
import type { Operation } from '../spec/spec.ts';
import { textKindsOf } from './text-kinds.ts';

/** A query parameter's name among the request fields: `?from_date`. */
const QUERY = '?';

/** The request and response fields an operation documents: its body's and query's, and its 2xx payload's. */
export function operationFields(operation: Operation): FieldTally['documented'] {
  const request = documentedFields(operation.requestSchema);
  const success = Object.entries(operation.responseSchemas).find(([status]) => status.startsWith('2'))?.[1] as
    | { properties?: Record<string, object> }
    | undefined;
  const payload = success?.properties?.[operation.envelope.payload] ?? success;
  return {
    request: [...operation.queryParams.map((p) => `${QUERY}${p.name}`), ...request.fields],
    enums: request.enums,
    texts: request.texts,
    response: documentedFields(payload).fields,
  };
}

function add(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Counts what one exchange sent and showed of its operation's documented fields: its request by intent, a 2xx answer's
 * payload.
 */
export function coverFields(ledger: Ledger, exchange: Exchange, operation: Operation): void {
  const coverage = (ledger.coverage[exchange.operation] ??= { requests: 0, statuses: {} });
  const tally = (coverage.fields ??= {
    documented: operationFields(operation),
    sent: {},
    enums: {},
    texts: {},
    seen: {},
  });
  const { documented } = tally;
  const enumPaths = new Set(Object.keys(documented.enums));
  const textPaths = new Set(documented.texts);
  const requestFields = new Set(documented.request);
  const intent = exchange.probe.intent;
  const sent = (tally.sent[intent] ??= {});
  const present = presentFields(exchange.request.json, new Set([...enumPaths, ...textPaths]));
  for (const name of Object.keys(exchange.request.query)) present.fields.add(`${QUERY}${name}`);
  for (const field of present.fields) if (requestFields.has(field)) add(sent, field);
  const enums = (tally.enums[intent] ??= {});
  for (const [path, values] of present.values) {
    if (!enumPaths.has(path)) continue;
    const byValue = (enums[path] ??= {});
    for (const value of values) add(byValue, value);
  }
  for (const [path, values] of present.values) {
    if (!textPaths.has(path)) continue;
    const byKind = ((tally.texts[intent] ??= {})[path] ??= {});
    for (const kind of new Set([...values].flatMap(textKindsOf))) add(byKind, kind);
  }
  const { response } = exchange;
  if (
    response &&
    response.status >= 200 &&
    response.status < 300 &&
    response.json &&
    typeof response.json === 'object'
  ) {
    const payload = (response.json as Record<string, unknown>)[operation.envelope.payload];
    const responseFields = new Set(documented.response);
    for (const field of presentFields(payload, new Set()).fields) if (responseFields.has(field)) add(tally.seen, field);
  }
}
