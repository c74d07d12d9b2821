import type { Exchange } from '../transport/exchange.ts';
import type { Judgement } from '../rule-model/judge.ts';

/** A name and value pair of HAR (headers, query string). */
interface HarPair {
  readonly name: string;
  readonly value: string;
}

/** What one exchange gave evidence for: a rule (and its part) it was judged by, and the violations it showed. */
export interface HarEvidence {
  readonly rule: string;
  readonly part?: string;
  readonly violations: number;
}

/** One HAR 1.2 entry, with the harness's own fields (HAR's custom fields start with `_`). */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: Record<string, unknown>;
  readonly response: Record<string, unknown>;
  readonly cache: Record<string, never>;
  readonly timings: {
    readonly send: number;
    readonly wait: number;
    readonly receive: number;
    readonly blocked: number;
    readonly dns: number;
    readonly connect: number;
  };
  readonly _operation: string;
  readonly _operationId: string;
  readonly _probe: string;
  readonly _intent: string;
  readonly _example?: unknown;
  readonly _error?: { readonly code: string; readonly message: string };
  /** Set on a request that only put back what the run changed: judged, but no evidence that a rule holds. */
  readonly _putBack?: true;
  /**
   * Set on a candidate of shrinking a failure of a property (a smaller request, a shorter sequence): judged again, no
   * evidence either.
   */
  readonly _shrink?: { readonly property: string };
  /** The rules the exchange was judged by when it was recorded; the report adds each one's verdict (`_verdicts`). */
  readonly _evidence: readonly HarEvidence[];
}

const HTTP_VERSION = 'HTTP/1.1';

function pairs(record: Readonly<Record<string, string>>): HarPair[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * The HAR entry of an exchange already redacted, recorded `endedAt` (ms since the epoch): the harness times a request
 * from its first byte sent to its last received, so that is `wait`, and the phases it does not see are -1.
 */
export function harEntry(exchange: Exchange, judgements: readonly Judgement[], endedAt: number): HarEntry {
  const { request, response, failure, probe } = exchange;
  const time = response?.durationMs ?? failure?.durationMs ?? 0;
  const requestType = headerValue(request.headers, 'content-type') ?? 'application/json';
  const responseType = response ? (headerValue(response.headers, 'content-type') ?? '') : '';
  const bodySize = response ? Buffer.byteLength(response.text) : 0;
  return {
    startedDateTime: new Date(endedAt - time).toISOString(),
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: pairs(request.headers),
      queryString: pairs(request.query),
      ...(request.body === undefined ? {} : { postData: { mimeType: requestType, text: request.body } }),
      headersSize: -1,
      bodySize: request.body === undefined ? 0 : Buffer.byteLength(request.body),
    },
    response: {
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: response ? HTTP_VERSION : '',
      cookies: [],
      headers: response ? pairs(response.headers) : [],
      content: { size: bodySize, mimeType: responseType, ...(response ? { text: response.text } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: response ? bodySize : -1,
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait: time, receive: 0 },
    _operation: exchange.operation,
    _operationId: exchange.operationId,
    _probe: probe.label,
    _intent: probe.intent,
    ...(probe.example === undefined ? {} : { _example: probe.example }),
    ...(failure ? { _error: { code: failure.code, message: failure.message } } : {}),
    ...(probe.shrink ? { _shrink: probe.shrink } : probe.evidence === false ? { _putBack: true as const } : {}),
    _evidence: judgements.map(({ rule, part, violations }) => ({
      rule,
      ...(part === undefined ? {} : { part }),
      violations: violations.length,
    })),
  };
}
