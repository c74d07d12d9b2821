import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request through the proxy and its answer. */
export interface WireExchange {
  readonly method: string;
  readonly path: string;
  readonly requestHeaders: Record<string, string | string[] | undefined>;
  readonly requestBody: string;
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly responseBody: string;
}

/**
 * A recording HTTP proxy on port 0 in front of one API of the reference target, so that the test knows every secret on
 * the wire.
 */
export async function recordingProxy(upstream: string, log: WireExchange[]): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          const body: Buffer[] = [];
          up.on('data', (c: Buffer) => body.push(c));
          up.on('end', () => {
            const responseBody = Buffer.concat(body);
            log.push({
              method: req.method ?? '',
              path: req.url ?? '',
              requestHeaders: req.headers,
              requestBody: requestBody.toString('utf8'),
              status: up.statusCode ?? 0,
              headers: up.headers,
              responseBody: responseBody.toString('utf8'),
            });
            const { 'transfer-encoding': _te, connection: _c, 'keep-alive': _k, ...headers } = up.headers;
            res.writeHead(up.statusCode ?? 502, { ...headers, 'content-length': responseBody.length });
            res.end(responseBody);
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
