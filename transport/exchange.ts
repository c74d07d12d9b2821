import type { ApiName } from '../spec/spec.ts';
import type { Probe } from '../core/probe-types.ts';

/** A request as sent: raw body text, and its JSON when it was built from a value. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Whose credentials were sent: the API's own, none, or a probe's own (wrong ones, say). */
  readonly auth: 'default' | 'none' | 'custom';
  /** The names of the headers the run's settings added (`--header`): secrets, redacted by name as by value. */
  readonly gateway?: readonly string[];
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly json?: unknown;
}

/** A complete HTTP response; `json` is set when the body parses as JSON. */
export interface RecordedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly json?: unknown;
  readonly jsonError?: string;
  readonly durationMs: number;
}

/** Why no complete response came back. `rate-limited` and `budget` are not the target's fault. */
export type TransportFailureCode =
  | 'timeout'
  | 'connection'
  | 'too-large'
  | 'protocol'
  | 'rate-limited'
  | 'budget'
  | 'interrupted';

/** A request that got no complete response. */
export interface TransportFailure {
  readonly code: TransportFailureCode;
  readonly message: string;
  readonly durationMs: number;
  /** When the target's certificate does not cover its name: the names it covers (`DNS:api.example.com`, ...). */
  readonly certificateNames?: readonly string[];
}

/** One request and what came back, with the probe that explains why it was sent. */
export interface Exchange {
  readonly api: ApiName;
  /** Operation key, e.g. `POST /v1/organizations/{organizationId}/keys`. */
  readonly operation: string;
  /** The operation's operationId in the spec, e.g. `createKey`. */
  readonly operationId: string;
  readonly probe: Probe;
  readonly request: RecordedRequest;
  readonly response?: RecordedResponse;
  readonly failure?: TransportFailure;
  /**
   * When its request was sent and its answer ended (ms, `performance.now()`), measured at the socket's side of the
   * client, so that the order real time admits can be told; absent for a request never sent.
   */
  readonly interval?: { readonly sent: number; readonly answered: number };
  /** Sent at once with others (`sendTogether`): what it answers is judged against every order of them. */
  readonly together?: true;
}

/** True for a 2xx response. */
export function isSuccess(exchange: Exchange): exchange is Exchange & { response: RecordedResponse } {
  return exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300;
}

/** True for a 4xx response: the target refused the request (a 5xx is a fault, not a refusal). */
export function isRefusal(exchange: Exchange): exchange is Exchange & { response: RecordedResponse } {
  return exchange.response !== undefined && exchange.response.status >= 400 && exchange.response.status < 500;
}

/** True for any 4xx or 5xx response: a rejection, in the contract's words. */
export function isRejection(exchange: Exchange): exchange is Exchange & { response: RecordedResponse } {
  return exchange.response !== undefined && exchange.response.status >= 400;
}
