import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { LEAN_FILES, loadUndici, undici } from '../core/undici.ts';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server on port 0 that answers with the method, path and query it received. */
async function echoServer(): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': 'yes' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("undici's parts, loaded without its index", () => {
  it('loads the Agent and the request API from their own files with the installed undici', () => {
    // When a release of undici moves these files, the run falls back to the index (slower start): this says so.
    const { version } = createRequire(import.meta.url)('undici/package.json') as { version: string };
    const moved =
      `undici ${version} no longer has ${LEAN_FILES.join(' and ')}, which core/undici.ts loads instead of ` +
      `its index (about 35 ms of every thread's start): point LEAN_FILES at where this release has the Agent ` +
      'and the request API, or drop the lean path';
    expect(undici.lean, moved).toBe(true);
    expect(loadUndici().lean, moved).toBe(true);
  });

  it('sends a request with its method, path, query and body through the Agent, and reads the answer', async () => {
    const url = new URL('/v1/things?limit=2', await echoServer());
    const agent = new undici.Agent({ connections: 1 });
    try {
      const res = await undici.request(agent, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['x-seen']).toBe('yes');
      expect(await res.body.json()).toEqual({ method: 'POST', url: '/v1/things?limit=2', body: '{"a":1}' });
    } finally {
      await agent.close();
    }
  });
});
