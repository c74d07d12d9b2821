import { isSuccess, type Exchange } from '../transport/exchange.ts';
import type { CreatedResource } from '../run/run-report-types.ts';

/** What a 2xx answer to a write did, for the report's list of changes; undefined for a GET or a refused request. */
export function writeRecord(exchange: Exchange): CreatedResource | undefined {
  if (exchange.request.method === 'GET' || !isSuccess(exchange)) return undefined;
  const body = exchange.response.json as
    | { result?: { id?: unknown; key?: { id?: unknown } }; data?: { id?: unknown } }
    | undefined;
  const named = [body?.result?.key?.id, body?.result?.id, body?.data?.id].find((id) => typeof id === 'string') as
    | string
    | undefined;
  const pathIds = Object.values(exchange.request.params);
  const id = named ?? pathIds.at(-1) ?? '';
  const unexpected = exchange.probe.intent === 'reject' ? ' (ACCEPTED although it was built to be rejected)' : '';
  return {
    kind: exchange.request.method === 'POST' ? 'created' : 'changed',
    id,
    operation: exchange.operationId,
    note: `${exchange.probe.label}${unexpected}`,
  };
}
