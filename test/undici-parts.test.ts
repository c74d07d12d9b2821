import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { LEAN_FILES, loadUndici, undici } from '../transport/undici.ts';
import { wholeAnswer } from '../transport/whole-answer.ts';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A server on port 0 that answers with the method, path and query it received; `/hints` after an informational
 * 103, `/large` with 4,000 bytes, `/never` not at all.
 */
async function echoServer(): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/never') return;
      if (req.url === '/hints') res.writeEarlyHints({ link: '</style.css>; rel=preload' });
      res.writeHead(201, { 'content-type': 'application/json', 'x-seen': 'yes' });
      res.end(req.url === '/large' ? 'x'.repeat(4_000) : JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("undici's parts, loaded without its index", () => {
  it('loads the Agent from its own file with the installed undici', () => {
    // When a release of undici moves these files, the run falls back to the index (slower start): this says so.
    const { version } = createRequire(import.meta.url)('undici/package.json') as { version: string };
    const moved =
      `undici ${version} no longer has ${LEAN_FILES.join(' and ')}, which transport/undici.ts loads instead of ` +
      `its index (about 40 ms of every thread's start): point LEAN_FILES at where this release has the Agent, ` +
      'or drop the lean path';
    expect(undici.lean, moved).toBe(true);
    expect(loadUndici().lean, moved).toBe(true);
  });

  it('sends a request with its method, path, query and body through the Agent and reads the answer whole', async () => {
    const url = new URL('/v1/things?limit=2', await echoServer());
    const agent = new undici.Agent({ connections: 1 });
    const send = (path: string, limits = { timeoutMs: 2_000, maxBytes: 1_000 }) =>
      wholeAnswer(
        agent,
        { origin: url.origin, path, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } },
        limits,
      );
    try {
      const answer = await send(`${url.pathname}${url.search}`);
      expect(answer).toMatchObject({ status: 201, headers: { 'x-seen': 'yes' } });
      expect(JSON.parse((answer as { body: Buffer }).body.toString('utf8'))).toEqual({
        method: 'POST',
        url: '/v1/things?limit=2',
        body: '{"a":1}',
      });
      // An informational answer before the final one is passed over.
      expect(await send('/hints')).toMatchObject({ status: 201, headers: { 'x-seen': 'yes' } });
      expect(await send('/large')).toBe('too-large');
      expect(await send('/large', { timeoutMs: 2_000, maxBytes: 4_000 })).toMatchObject({ status: 201 });
      await expect(send('/never', { timeoutMs: 200, maxBytes: 1_000 })).rejects.toMatchObject({
        name: 'TimeoutError',
        message: 'no complete response within 200 ms',
      });
      // The connection the timeout gave up on is not the next request's: it is answered.
      expect(await send('/v1/again')).toMatchObject({ status: 201 });
    } finally {
      await agent.close();
    }
  });

  it("rejects with undici's error when the target cannot be reached", async () => {
    const agent = new undici.Agent({ connections: 1 });
    try {
      await expect(
        wholeAnswer(
          agent,
          { origin: 'http://127.0.0.1:9', path: '/', method: 'GET' },
          { timeoutMs: 2_000, maxBytes: 10 },
        ),
      ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await agent.close();
    }
  });
});
