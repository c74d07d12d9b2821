import type { Exchange, RecordedRequest, RecordedResponse } from '../transport/exchange.ts';
import { jsonText, withoutBigInts } from '../core/json-text.ts';
import type { SecretRegistry } from './secret-registry.ts';

/** What replaces every secret in anything recorded. */
export const REDACTED = '[redacted]';

/**
 * Replaces secrets, found by field or header name and by value (every secret of the run's registry, in every form), in
 * recorded exchanges and free text.
 */
export interface Redactor {
  /** The registry of secrets it reads, which learns the run's secrets as they are sent and returned. */
  readonly secrets: SecretRegistry;
  text(value: string): string;
  /**
   * Like `text`, but leaves the values in `keep` as they are (values the harness generated, shown in a reproduction).
   */
  textKeeping(value: string, keep: ReadonlySet<string>): string;
  value<T>(value: T): T;
  exchange(exchange: Exchange): Exchange;
}

/**
 * Creates the redactor of a thread, for field and header names (case-insensitive) and for the secret values of the
 * registry, as it knows them at each call.
 */
export function createRedactor(secretNames: readonly string[], secrets: SecretRegistry): Redactor {
  const names = new Set(secretNames.map((n) => n.toLowerCase()));
  // Finding which of thousands of secrets a text holds is one pass over it (`--har` redacts every exchange of a run).
  const textKeeping = (input: string, keep?: ReadonlySet<string>): string => {
    const found = secrets.everyIn(input).flatMap((f) => (keep?.has(f.secret) ? [] : [f.text]));
    if (found.length === 0) return input;
    // Every place a form occurs, overlapping ones (the runs of a secret leaked in part) joined: none leaves part of it.
    const spans: [number, number][] = [];
    for (const secret of found)
      for (let at = input.indexOf(secret); at >= 0; at = input.indexOf(secret, at + 1))
        spans.push([at, at + secret.length]);
    spans.sort((a, b) => a[0] - b[0]);
    let out = '';
    let from = 0;
    for (const [start, end] of spans) {
      if (end <= from) continue;
      if (start >= from) out += input.slice(from, start) + REDACTED;
      from = end;
    }
    return out + input.slice(from);
  };
  const text = (input: string): string => textKeeping(input);
  const value = <T>(input: T): T => redactValue(input, names, text) as T;
  const headers = (input: Readonly<Record<string, string>>, own: readonly string[] = []): Record<string, string> =>
    Object.fromEntries(
      Object.entries(input).map(([k, v]) => [
        k,
        names.has(k.toLowerCase()) || own.includes(k.toLowerCase()) ? REDACTED : text(v),
      ]),
    );

  const request = (r: RecordedRequest): RecordedRequest => ({
    ...r,
    url: text(r.url),
    headers: headers(r.headers, r.gateway),
    query: value(r.query),
    ...(r.json !== undefined
      ? { json: withoutBigInts(value(r.json)), body: jsonText(value(r.json)) }
      : r.body !== undefined
        ? { body: text(r.body) }
        : {}),
  });
  const response = (r: RecordedResponse): RecordedResponse => ({
    ...r,
    headers: headers(r.headers),
    ...(r.json !== undefined
      ? { json: withoutBigInts(value(r.json)), text: jsonText(value(r.json)) }
      : { text: text(r.text) }),
  });

  return {
    secrets,
    text,
    textKeeping,
    value,
    exchange: (ex) => ({
      ...ex,
      request: request(ex.request),
      ...(ex.response ? { response: response(ex.response) } : {}),
      ...(ex.failure ? { failure: { ...ex.failure, message: text(ex.failure.message) } } : {}),
    }),
  };
}

function redactValue(input: unknown, names: ReadonlySet<string>, text: (s: string) => string): unknown {
  if (typeof input === 'string') return text(input);
  if (Array.isArray(input)) return input.map((item) => redactValue(item, names, text));
  if (input && typeof input === 'object') {
    return Object.fromEntries(
      Object.entries(input).map(([k, v]) => [k, names.has(k.toLowerCase()) ? REDACTED : redactValue(v, names, text)]),
    );
  }
  return input;
}
