import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a gateway saw: the requests it let through and those it refused, and every header name it was sent. */
export interface GatewayLog {
  passed: number;
  refused: number;
  readonly headerNames: Set<string>;
}

/**
 * An API gateway on port 0 in front of one API of a reference target: a request without `header: value` is refused
 * with 401 and the gateway's own words; one with it goes on to the API without that header (with `echo`, the key is
 * added to each JSON object answered).
 */
export async function startGateway(
  upstream: string,
  header: string,
  value: string,
  options: { readonly echo?: boolean } = {},
): Promise<{ url: string; server: Server; log: GatewayLog }> {
  const target = new URL(upstream);
  const log: GatewayLog = { passed: 0, refused: 0, headerNames: new Set() };
  const server = createServer((req, res) => {
    for (const name of Object.keys(req.headers)) log.headerNames.add(name);
    if (req.headers[header] !== value) {
      log.refused += 1;
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end(`gateway: access denied, no valid ${header} header (request ${log.refused})`);
      req.resume();
      return;
    }
    log.passed += 1;
    const { [header]: _key, ...headers } = req.headers;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (up) => {
        if (!options.echo) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        // A gateway that leaks: it adds the key it was sent to every JSON object it answers.
        const chunks: Buffer[] = [];
        up.on('data', (chunk: Buffer) => chunks.push(chunk));
        up.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (/^\s*\{/.test(body)) body = JSON.stringify({ ...JSON.parse(body), gatewaySession: value });
          const { 'content-length': _length, 'transfer-encoding': _te, ...headers } = up.headers;
          res.writeHead(up.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, log };
}
