import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { createLimiter, type Limiter, type LimiterSignals } from '../bench/limiter.ts';
import { createPacers } from '../transport/credential-pacer.ts';
import type { Exchange } from '../transport/exchange.ts';
import { createHttpClient } from '../transport/http-client.ts';
import { createRequestGate } from '../transport/request-gate.ts';
import type { ApiName, Operation } from '../spec/spec.ts';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server on port 0 behind a fixed-window limiter per `Authorization` header: 20 requests per 2 s. */
async function limitedServer(signals: LimiterSignals): Promise<{ url: string; limiter: Limiter }> {
  const limiter = createLimiter({ limit: 20, windowMs: 2000, signals });
  const server = createServer((req, res) => {
    const decision = limiter.decide(req.headers.authorization ?? '');
    res.writeHead(decision.allowed ? 200 : 429, { ...decision.headers, 'content-type': 'application/json' });
    res.end(decision.allowed ? '{"data":[]}' : '{"message":"too many requests"}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, limiter };
}

function operation(api: ApiName): Operation {
  return {
    key: 'GET /things',
    api,
    operationId: 'listThings',
    method: 'GET',
    path: '/things',
    klass: 'read',
    pathParams: [],
    queryParams: [],
    responseSchemas: {},
    envelope: { payload: 'data' },
    writeOnlyFields: [],
    openFields: [],
  };
}

/**
 * Sends `perCredential` GETs with each of two credentials (one per API, as a run does) through one run-wide gate of
 * concurrency 8, all at once; returns the exchanges, the wall time and the retries the clients reported.
 */
async function sendThrough(
  url: string,
  perCredential: number,
): Promise<{ exchanges: Exchange[]; wallMs: number; retried: number }> {
  const deadline = Date.now() + 120_000;
  const gate = createRequestGate({ concurrency: 8, maxRps: 0, deadline });
  const pacers = createPacers({ maxHoldMs: 60_000, deadline });
  const dispatcher = new Agent({ connections: 8 });
  let retried = 0;
  const common = {
    baseUrl: url,
    timeoutMs: 5000,
    maxResponseBytes: 1 << 20,
    gate,
    pacers,
    dispatcher,
    deadline,
    backoffMs: 500,
    maxRateLimitWaitMs: 60_000,
    onExchange: (exchange: Exchange) => exchange,
    onRateLimited: () => {
      retried += 1;
    },
  };
  const clients = [
    createHttpClient({ ...common, api: 'management', authorization: 'Basic a2V5OnNlY3JldA==' }),
    createHttpClient({ ...common, api: 'alerts', authorization: 'Bearer alerts-token' }),
  ];
  const started = Date.now();
  try {
    const exchanges = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: perCredential }, () =>
          client.send({ operation: operation(client.api), probe: { intent: 'observe', label: 'paced' } }),
        ),
      ),
    );
    return { exchanges, wallMs: Date.now() - started, retried };
  } finally {
    await dispatcher.close();
  }
}

describe('pacing against a limiter of 20 requests per 2 s per credential', () => {
  it.each<[LimiterSignals, number]>([
    // A 429 tells only when the window ends: the first window costs the requests in flight (up to 8 per credential),
    // later ones about one probe each; 40 leaves room for a loaded machine and stays far below the 160-180 that
    // retrying blindly costs (and the 48 without learning the limit).
    ['x-ratelimit-reset', 40],
    // Retry-After: 60 beside the seconds the limiter has left: the seconds win; nobody waits a minute.
    ['retry-after-60', 40],
    // Remaining read from every answer: the limit is met before a 429 (a loaded machine may reorder an answer or two).
    ['ratelimit-remaining', 2],
  ])(
    'with %s: every request answered, near the least possible time, at most %i 429s',
    async (signals, most429s) => {
      const { url, limiter } = await limitedServer(signals);
      const { exchanges, wallMs, retried } = await sendThrough(url, 70);

      expect(exchanges.map((e) => e.response?.status ?? e.failure?.code)).toEqual(exchanges.map(() => 200));
      const totals = limiter.totals();
      expect(totals.accepted).toBe(140);
      expect(totals.limited).toBe(retried);
      expect(totals.limited).toBeLessThanOrEqual(most429s);
      // 70 requests per credential take 4 windows: at least 6 s from the first request. The upper bound only tells a
      // paced run from one that waited out a 60 s Retry-After (how close to the least possible is the bench's figure).
      expect(wallMs).toBeGreaterThanOrEqual(limiter.leastPossibleMs() - 50);
      expect(wallMs).toBeLessThan(limiter.leastPossibleMs() + 30_000);
    },
    60_000,
  );
});
