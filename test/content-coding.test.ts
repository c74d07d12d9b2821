import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeBody } from '../transport/content-coding.ts';
import { createPacers } from '../transport/credential-pacer.ts';
import type { Exchange } from '../transport/exchange.ts';
import { createHttpClient } from '../transport/http-client.ts';
import { createRequestGate } from '../transport/request-gate.ts';
import type { Operation } from '../spec/spec.ts';

const JSON_TEXT = JSON.stringify({ status: 200, requestId: 'r', result: { name: 'pipe', note: 'x'.repeat(300) } });
const PLAIN = Buffer.from(JSON_TEXT);

describe('an answer body undone as its Content-Encoding says', () => {
  it.each<[string, Buffer]>([
    ['gzip', gzipSync(PLAIN)],
    ['x-gzip', gzipSync(PLAIN)],
    ['deflate', deflateSync(PLAIN)],
    ['br', brotliCompressSync(PLAIN)],
    ['identity', PLAIN],
    ['GZIP', gzipSync(PLAIN)],
    // Applied in the order listed: gzip first, then br; undone the other way.
    ['gzip, br', brotliCompressSync(gzipSync(PLAIN))],
  ])('%s', (coding, body) => {
    expect(decodeBody(body, coding, 1 << 20)).toEqual({ body: PLAIN });
  });

  it('reads deflate sent as the raw stream, as some servers do', () => {
    expect(decodeBody(deflateRawSync(PLAIN), 'deflate', 1 << 20)).toEqual({ body: PLAIN });
  });

  it('leaves a body with no coding, or of no bytes, as it is', () => {
    expect(decodeBody(PLAIN, undefined, 1 << 20)).toEqual({ body: PLAIN });
    expect(decodeBody(Buffer.alloc(0), 'gzip', 1 << 20)).toEqual({ body: Buffer.alloc(0) });
  });

  it('says which coding it cannot read, and a body that is not what its coding says', () => {
    const unknown = decodeBody(PLAIN, 'compress', 1 << 20);
    expect(unknown).toEqual({ unreadable: expect.stringContaining('content-coding "compress"') });
    const corrupt = decodeBody(PLAIN, 'gzip', 1 << 20);
    expect(corrupt).toEqual({ unreadable: expect.stringContaining('is not the gzip its Content-Encoding says') });
  });

  it('stops at the size limit once undone: a small body that inflates past it is too large', () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x20));
    expect(bomb.length).toBeLessThan(10_000);
    expect(decodeBody(bomb, 'gzip', 1_000_000)).toEqual({ tooLarge: true });
    expect(decodeBody(gzipSync(PLAIN), 'gzip', PLAIN.length)).toEqual({ body: PLAIN });
    expect(decodeBody(gzipSync(PLAIN), 'gzip', PLAIN.length - 1)).toEqual({ tooLarge: true });
  });
});

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that answers each path's coding of the JSON text, unasked (the request names no coding). */
async function codingServer(): Promise<string> {
  const server = createServer((req, res) => {
    const coding = (req.url ?? '/').slice(1);
    const body =
      coding === 'gzip'
        ? gzipSync(PLAIN)
        : coding === 'br'
          ? brotliCompressSync(PLAIN)
          : coding === 'bomb'
            ? gzipSync(Buffer.alloc(3_000_000, 0x20))
            : PLAIN;
    const header = coding === 'bomb' ? 'gzip' : coding;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(header === 'plain' ? {} : { 'content-encoding': header }),
      'x-asked-encoding': req.headers['accept-encoding'] ?? 'none',
    });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function operation(path: string): Operation {
  return {
    key: `GET ${path}`,
    api: 'management',
    operationId: 'getThing',
    method: 'GET',
    path,
    klass: 'read',
    pathParams: [],
    queryParams: [],
    responseSchemas: {},
    envelope: { payload: 'result' },
    writeOnlyFields: [],
    openFields: [],
  };
}

describe('the HTTP client, against a server that compresses unasked', () => {
  it('reads gzip and br answers as the JSON they hold; one that inflates past the limit is too large', async () => {
    const url = await codingServer();
    const deadline = Date.now() + 30_000;
    const dispatcher = new Agent({ connections: 2 });
    const client = createHttpClient({
      api: 'management',
      authorization: 'Basic a2V5OnNlY3JldA==',
      baseUrl: url,
      timeoutMs: 5000,
      maxResponseBytes: 1_000_000,
      gate: createRequestGate({ concurrency: 2, maxRps: 0, deadline }),
      pacers: createPacers({ maxHoldMs: 1000, deadline }),
      dispatcher,
      deadline,
      backoffMs: 100,
      maxRateLimitWaitMs: 1000,
      onExchange: (exchange: Exchange) => exchange,
      onRateLimited: () => undefined,
    });
    try {
      const send = (path: string) =>
        client.send({ operation: operation(path), probe: { intent: 'observe', label: 'coded' } });
      for (const path of ['/gzip', '/br', '/plain']) {
        const exchange = await send(path);
        expect(exchange.response?.jsonError, path).toBeUndefined();
        expect(exchange.response?.json, path).toEqual(JSON.parse(JSON_TEXT));
        expect(exchange.response?.text, path).toBe(JSON_TEXT);
        // The request asked for no coding: a server may then use any (RFC 9110, 12.5.3).
        expect(exchange.response?.headers['x-asked-encoding'], path).toBe('none');
      }
      const bomb = await send('/bomb');
      expect(bomb.response).toBeUndefined();
      expect(bomb.failure?.code).toBe('too-large');
      expect(bomb.failure?.message).toContain('once decoded');
    } finally {
      await dispatcher.close();
    }
  });
});
