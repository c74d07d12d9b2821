import { API_LIST, type ApiName } from '../apis/index.ts';
import { runAuthorization } from '../apis/descriptor.ts';
import type { RunConfig } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { createPacers } from '../transport/credential-pacer.ts';
import { createDispatchers } from '../transport/dispatcher.ts';
import type { Exchange } from '../transport/exchange.ts';
import { createHttpClient, type HttpClient } from '../transport/http-client.ts';
import { createRequestGate, type RequestGate } from '../transport/request-gate.ts';

/** How a transport is sized beside the run's settings: the preflight's few GETs, or the run's probe groups. */
export interface TransportShape {
  /** Connections per origin. */
  readonly connections: number;
  /** How long an idle connection is kept (ms); undici's default when absent. */
  readonly keepAliveTimeoutMs?: number;
  /** Requests this transport may send at most (`--max-requests` less what was spent before it). */
  readonly maxRequests?: number;
  /** Requests of `maxRequests` kept for put-backs. */
  readonly putBacks?: number;
  /** Epoch milliseconds before which no request starts: where the transport before it left `--max-rps` off. */
  readonly notBefore?: number;
}

/** What a transport's clients tell their owner of each request. */
export interface ClientHooks<R> {
  /** Called with every exchange, unredacted, as it ends: what it returns is what `send` returns. */
  readonly onExchange: (exchange: Exchange) => R;
  /** Called with every 429 answer that is retried. */
  readonly onRateLimited: () => void;
}

/** The request gate, pacers and connection pool of a run or its preflight, and its clients of each configured API. */
export interface RunTransport {
  readonly gate: RequestGate;
  /** One client per API the run targets, all through this gate, these pacers and this pool. */
  clients<R>(hooks: ClientHooks<R>): Partial<Record<ApiName, HttpClient<R>>>;
  /** Closes the connection pool once the requests in flight are answered. */
  close(): Promise<void>;
  /** Destroys the connection pool at once, requests in flight included. */
  destroy(): Promise<void>;
}

/**
 * Builds a transport on the run's settings (concurrency, rate, time budget from now, timeouts, network, headers,
 * credentials), the one way the preflight and the session reach the target.
 */
export function openRunTransport(config: RunConfig, shape: TransportShape): RunTransport {
  const deadline = Date.now() + config.budgetMs;
  const gate = createRequestGate({
    concurrency: config.concurrency,
    maxRps: config.maxRps,
    deadline,
    ...(shape.maxRequests === undefined ? {} : { maxRequests: shape.maxRequests }),
    ...(shape.putBacks === undefined ? {} : { putBacks: shape.putBacks }),
    ...(shape.notBefore === undefined ? {} : { notBefore: shape.notBefore }),
  });
  const pacers = createPacers({ maxHoldMs: DEFAULTS.rateLimitMaxWaitMs, deadline });
  const dispatchers = createDispatchers(config.network, {
    connections: shape.connections,
    ...(shape.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs: shape.keepAliveTimeoutMs }),
    connectTimeoutMs: config.timeoutMs,
  });
  return {
    gate,
    clients<R>({ onExchange, onRateLimited }: ClientHooks<R>) {
      const clients: Partial<Record<ApiName, HttpClient<R>>> = {};
      for (const api of API_LIST) {
        const target = config[api.name];
        if (!target) continue;
        clients[api.name] = createHttpClient({
          api: api.name,
          baseUrl: target.baseUrl,
          dispatcher: dispatchers.of(target.baseUrl),
          authorization: runAuthorization(api, config) ?? '',
          ...(config.headers[api.name] ? { headers: config.headers[api.name] } : {}),
          timeoutMs: config.timeoutMs,
          maxResponseBytes: config.maxResponseBytes,
          gate,
          pacers,
          deadline,
          backoffMs: DEFAULTS.rateLimitBackoffMs,
          maxRateLimitWaitMs: DEFAULTS.rateLimitMaxWaitMs,
          onExchange,
          onRateLimited,
        });
      }
      return clients;
    },
    close: () => dispatchers.close(),
    destroy: () => dispatchers.destroy(),
  };
}
