import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type {
  Exchange,
  RecordedRequest,
  RecordedResponse,
  TransportFailure,
  TransportFailureCode,
} from './exchange.ts';
import type { Probe } from '../core/probe-types.ts';
import { createPacers, type CredentialPacer, type PacerClaim, type Pacers } from './credential-pacer.ts';
import type { GateRefusal, RequestGate } from './request-gate.ts';
import { retryDelayMs } from './retry-after.ts';
import type { ApiName, Operation } from '../spec/spec.ts';
import { wholeAnswer } from './whole-answer.ts';
import { decodeBody } from './content-coding.ts';
import { jsonText, parseJsonText } from '../core/json-text.ts';

/** How one API is reached: its base URL, its credentials, and the run's shared limits. */
export interface HttpClientOptions<R = Exchange> {
  readonly api: ApiName;
  readonly baseUrl: string;
  /** The `Authorization` header of this API; it is sent to this base URL only. */
  readonly authorization: string;
  /** The run's own headers of this API (`--header`), names in lower case, sent on every request beside its own. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly gate: RequestGate;
  readonly dispatcher: Dispatcher;
  /** Epoch milliseconds after which rate-limit waits are given up. */
  readonly deadline: number;
  readonly backoffMs: number;
  readonly maxRateLimitWaitMs: number;
  /** Called with every exchange, unredacted, as it ends: what it returns is what `send` returns. */
  readonly onExchange: (exchange: Exchange) => R;
  /** The run's pacers, shared by every client of the run; a client of its own when absent. */
  readonly pacers?: Pacers;
  /** Called with every 429 answer that is retried. */
  readonly onRateLimited?: (waitMs: number) => void;
}

/** One request to send: the operation, its parameters and body, and the probe behind it. */
export interface SendOptions {
  readonly operation: Operation;
  readonly probe: Probe;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Query pairs sent after `query`'s, as they are (a name repeated, say); the recorded `query` keeps the first. */
  readonly morePairs?: readonly (readonly [string, string])[];
  /** Another method than the operation's (one its path does not list). */
  readonly method?: string;
  /** A JSON body, serialised as is. */
  readonly json?: unknown;
  /** A raw body, for malformed requests. */
  readonly body?: string;
  /** The body's `Content-Type` (JSON when absent); null sends none. */
  readonly contentType?: string | null;
  /** Replaces the API's own `Authorization` header; null sends none. */
  readonly authorization?: string | null;
  /** The chain of requests it is a step of: the gate's lane (see `AdmitOptions.lane`). */
  readonly lane?: string;
}

/** Sends requests to one API and records each exchange: `send` returns what `onExchange` made of it. */
export interface HttpClient<R = Exchange> {
  readonly api: ApiName;
  send(options: SendOptions): Promise<R>;
  /**
   * Sends every request at once (the gate's barrier, each paced by its credential's pacer) and returns the exchanges
   * unrecorded, each with its interval; a 429 is retried alone. The caller records each (`record`).
   */
  sendTogether(options: readonly SendOptions[]): Promise<Exchange[]>;
  /** Records an exchange `sendTogether` returned, as `send` records its own. */
  record(exchange: Exchange): R;
}

/**
 * Creates a client on undici that never follows redirects, caps time and body size, paces each credential to what
 * its limiter is expected to take (see `createCredentialPacer`), and retries 429s when the limiter's reset is due.
 */
export function createHttpClient<R>(options: HttpClientOptions<R>): HttpClient<R> {
  const pacers = options.pacers ?? createPacers({ maxHoldMs: options.maxRateLimitWaitMs, deadline: options.deadline });
  const exchange = async (opts: SendOptions): Promise<Exchange> => {
    const req = buildRequest(options, opts);
    const pacer = pacers.of(options.api, req.headers.authorization);
    let attempt = 0;
    let waitedMs = 0;
    const restores = opts.probe.restores === true;
    for (;;) {
      await pacer.open();
      let claim: PacerClaim | undefined;
      const ready = (): boolean => {
        claim = pacer.tryClaim();
        return claim !== undefined;
      };
      const outcome = await options.gate.admit(() => exchangeOnce(options, req), {
        restores,
        ready,
        ...(opts.lane === undefined ? {} : { lane: opts.lane }),
      });
      if (!outcome.ok && outcome.refusal === 'held') continue;
      const result: Pick<Exchange, 'response' | 'failure' | 'interval'> = outcome.ok
        ? outcome.value
        : { failure: refusalFailure(outcome.refusal) };
      if (claim) pacer.settle(claim, result.response);
      if (result.response?.status === 429) {
        const wait = retryDelayMs(result.response.headers, attempt, options.backoffMs);
        if (waitedMs + wait <= options.maxRateLimitWaitMs && Date.now() + wait < options.deadline) {
          options.onRateLimited?.(wait);
          if (claim) pacer.holdUntil(claim, Date.now() + wait);
          // A put-back waits its whole wait; any other request's wait ends at an interrupt (the gate then refuses it).
          if (restores) await sleep(wait);
          else await options.gate.pause(wait);
          waitedMs += wait;
          attempt += 1;
          continue;
        }
        return exchangeOf(options, opts, req, {
          failure: {
            code: 'rate-limited',
            message: `still rate limited (429) after ${attempt + 1} attempts and ${Math.round(waitedMs)} ms of waiting`,
            durationMs: result.response.durationMs,
          },
          ...(result.interval ? { interval: result.interval } : {}),
        });
      }
      return exchangeOf(options, opts, req, result);
    }
  };
  const sendTogether = async (list: readonly SendOptions[]): Promise<Exchange[]> => {
    const reqs = list.map((opts) => buildRequest(options, opts));
    const claims: { pacer: CredentialPacer; claim: PacerClaim | undefined }[] = [];
    for (const req of reqs) {
      const pacer = pacers.of(options.api, req.headers.authorization);
      // A group holds its claims while it gathers them: a pacer it already holds a claim of may not open before the
      // group is sent (a pacer feeling out a limit admits one at a time), so the rest of the group goes unpaced then;
      // another pacer is waited for, up to the longest a rate limit may hold a request (a wait that keeps the process
      // alive no longer than the pacer does: a run that ends in this thread then ends at once).
      const holding = claims.some((held) => held.pacer === pacer && held.claim !== undefined);
      if (!holding) await Promise.race([pacer.open(), sleep(options.maxRateLimitWaitMs, undefined, { ref: false })]);
      claims.push({ pacer, claim: pacer.tryClaim() });
    }
    const lane = list[0]?.lane;
    const outcome = await options.gate.admitTogether(
      reqs.map((req) => () => exchangeOnce(options, req)),
      lane === undefined ? {} : { lane },
    );
    return Promise.all(
      list.map(async (opts, index): Promise<Exchange> => {
        const { pacer, claim } = claims[index]!;
        const result: Pick<Exchange, 'response' | 'failure' | 'interval'> = outcome.ok
          ? outcome.values[index]!
          : { failure: refusalFailure(outcome.refusal) };
        if (claim) pacer.settle(claim, result.response);
        if (result.response?.status !== 429)
          return { ...exchangeOf(options, opts, reqs[index]!, result), together: true };
        const sent = performance.now();
        const retried = await exchange(opts);
        return { ...retried, interval: { sent, answered: performance.now() }, together: true };
      }),
    );
  };
  return {
    api: options.api,
    send: async (opts) => options.onExchange(await exchange(opts)),
    sendTogether,
    record: (recorded) => options.onExchange(recorded),
  };
}

function exchangeOf(
  client: HttpClientOptions<unknown>,
  opts: SendOptions,
  request: RecordedRequest,
  result: Pick<Exchange, 'response' | 'failure' | 'interval'>,
): Exchange {
  return {
    api: client.api,
    operation: opts.operation.key,
    operationId: opts.operation.operationId,
    probe: opts.probe,
    request,
    ...result,
  };
}

function refusalFailure(refusal: GateRefusal): TransportFailure {
  return {
    code: refusal === 'interrupted' ? 'interrupted' : 'budget',
    message: refusalMessage(refusal),
    durationMs: 0,
  };
}

const REFUSALS: Readonly<Record<GateRefusal, string>> = Object.freeze({
  budget: 'not sent: the run reached --max-requests',
  deadline: 'not sent: the run reached its time budget (--budget-ms)',
  interrupted: 'not sent: the run was interrupted',
  held: 'not sent: held for the rate limit',
});

function refusalMessage(refusal: GateRefusal): string {
  return REFUSALS[refusal];
}

function buildRequest(client: HttpClientOptions<unknown>, opts: SendOptions): RecordedRequest {
  const params = opts.params ?? {};
  const path = opts.operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const more = opts.morePairs ?? [];
  const query = { ...Object.fromEntries(more.map(([name, value]) => [name, value])), ...opts.query };
  const search = new URLSearchParams([
    ...Object.entries(opts.query ?? {}),
    ...more.map(([name, value]) => [name, value]),
  ]).toString();
  const body = opts.json !== undefined ? jsonText(opts.json) : opts.body;
  const gateway = client.headers ?? {};
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'contract-conformance/0.1',
    ...gateway,
  };
  const authorization = opts.authorization === undefined ? client.authorization : opts.authorization;
  if (authorization !== null) headers.authorization = authorization;
  if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
  return {
    method: opts.method ?? opts.operation.method,
    url: `${client.baseUrl}${path}${search ? `?${search}` : ''}`,
    headers,
    auth: opts.authorization === undefined ? 'default' : opts.authorization === null ? 'none' : 'custom',
    ...(Object.keys(gateway).length > 0 ? { gateway: Object.keys(gateway) } : {}),
    params,
    query,
    ...(body !== undefined ? { body } : {}),
    ...(opts.json !== undefined ? { json: opts.json } : {}),
  };
}

/** Sends a request once and reads its whole answer, with when it was sent and when its answer ended. */
async function exchangeOnce(
  client: HttpClientOptions<unknown>,
  req: RecordedRequest,
): Promise<Pick<Exchange, 'response' | 'failure' | 'interval'>> {
  const sent = performance.now();
  const result = await answerOnce(client, req);
  return { ...result, interval: { sent, answered: performance.now() } };
}

async function answerOnce(
  client: HttpClientOptions<unknown>,
  req: RecordedRequest,
): Promise<{ response?: RecordedResponse; failure?: TransportFailure }> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  try {
    const url = new URL(req.url);
    const answer = await wholeAnswer(
      client.dispatcher,
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        headersTimeout: client.timeoutMs,
        bodyTimeout: client.timeoutMs,
      },
      { timeoutMs: client.timeoutMs, maxBytes: client.maxResponseBytes },
    );
    if (answer === 'too-large')
      return {
        failure: {
          code: 'too-large',
          message: `response body exceeded ${client.maxResponseBytes} bytes (--max-response-bytes)`,
          durationMs: elapsed(),
        },
      };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value ?? '');
    const decoded = decodeBody(answer.body, headers['content-encoding'], client.maxResponseBytes);
    if ('tooLarge' in decoded)
      return {
        failure: {
          code: 'too-large',
          message:
            `response body exceeded ${client.maxResponseBytes} bytes once decoded from its Content-Encoding ` +
            '(--max-response-bytes)',
          durationMs: elapsed(),
        },
      };
    if ('unreadable' in decoded) {
      const text = answer.body.toString('utf8');
      return {
        response: { status: answer.status, headers, text, jsonError: decoded.unreadable, durationMs: elapsed() },
      };
    }
    const text = decoded.body.toString('utf8');
    return { response: { status: answer.status, headers, text, ...parseJson(text), durationMs: elapsed() } };
  } catch (error) {
    const names = certificateNames(error);
    return {
      failure: {
        code: failureCode(error),
        message: failureMessage(error, client.timeoutMs),
        durationMs: elapsed(),
        ...(names ? { certificateNames: names } : {}),
      },
    };
  }
}

function parseJson(text: string): { json?: unknown; jsonError?: string } {
  if (text.trim() === '') return { jsonError: 'empty body' };
  try {
    return { json: parseJsonText(text) };
  } catch (error) {
    return { jsonError: (error as Error).message };
  }
}

function failureCode(error: unknown): TransportFailureCode {
  const code = (error as { code?: string }).code ?? '';
  if (
    (error as Error).name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return 'timeout';
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO')
    return 'protocol';
  return 'connection';
}

function failureMessage(error: unknown, timeoutMs: number): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  // undici names its own aborts (a proxy's refused tunnel) AbortError: only the timer's TimeoutError is a timeout.
  if (
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT' ||
    (err as Error).name === 'TimeoutError'
  ) {
    return `no complete response within ${timeoutMs} ms (--timeout-ms)`;
  }
  const cause = err.cause?.code ? ` (${err.cause.code})` : '';
  return `${err.code ?? 'error'}: ${err.message ?? String(error)}${cause}`;
}

/** The names a certificate covers, from the error of one that does not cover the target's name. */
function certificateNames(error: unknown): string[] | undefined {
  const err = error as { code?: string; cert?: { subjectaltname?: string; subject?: { CN?: string } } };
  if (err.code !== 'ERR_TLS_CERT_ALTNAME_INVALID') return undefined;
  const names = err.cert?.subjectaltname?.split(', ').filter(Boolean) ?? [];
  return names.length > 0 ? names : err.cert?.subject?.CN ? [`CN:${err.cert.subject.CN}`] : [];
}
