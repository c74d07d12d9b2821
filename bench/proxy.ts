import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Limiter } from './limiter.ts';

/** One request as it went through the proxy: enough to send it again. */
export interface ProxiedRequest {
  /** The origin the proxy forwarded to, and when the request arrived (ms, performance clock). */
  readonly origin: string;
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A proxy in front of one HTTP origin. */
export interface Proxy {
  readonly url: string;
  /** What went through, in arrival order, when recording. */
  readonly recorded: readonly ProxiedRequest[];
  readonly close: () => Promise<void>;
}

/** What a proxy does besides forwarding: record requests, delay every response, answer as a rate limiter would. */
export interface ProxyOptions {
  readonly record?: boolean;
  readonly delayMs?: number;
  /** A limiter deciding every request before it is forwarded; its credentials are counted under `scope` (one API). */
  readonly limiter?: { readonly limiter: Limiter; readonly scope: string };
}

/**
 * Starts a loopback proxy to `upstream` on port 0 that optionally records requests, delays responses by `delayMs` and
 * rate-limits.
 */
export async function startProxy(upstream: string, options: ProxyOptions = {}): Promise<Proxy> {
  const origin = new URL(upstream);
  const recorded: ProxiedRequest[] = [];
  const delayMs = options.delayMs ?? 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (options.record)
        recorded.push({
          origin: origin.origin,
          at: performance.now(),
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body,
        });
      const decision = options.limiter?.limiter.decide(`${options.limiter.scope} ${req.headers.authorization ?? ''}`);
      if (decision && !decision.allowed) {
        const payload = Buffer.from('{"message":"too many requests"}');
        setTimeout(() => {
          res.writeHead(429, {
            ...decision.headers,
            'content-type': 'application/json',
            'content-length': payload.length,
          });
          res.end(payload);
        }, delayMs);
        return;
      }
      const forward = httpRequest(
        { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          const answer: Buffer[] = [];
          up.on('data', (chunk: Buffer) => answer.push(chunk));
          up.on('end', () => {
            const payload = Buffer.concat(answer);
            const { 'transfer-encoding': _te, connection: _c, 'keep-alive': _k, ...headers } = up.headers;
            const send = (): void => {
              res.writeHead(up.statusCode ?? 502, {
                ...headers,
                ...decision?.headers,
                'content-length': payload.length,
              });
              res.end(payload);
            };
            if (delayMs > 0) setTimeout(send, delayMs);
            else send();
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    recorded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
