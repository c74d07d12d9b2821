import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { stringifyJson, type Json } from './json.ts';
import type { Outgoing } from './hooks.ts';
import { problem, type Problem } from './problem.ts';

/** The largest request body the target reads: 1 MiB. */
export const BODY_LIMIT_BYTES = 1_048_576;

/** A request body as read: its bytes, or the fact that it was over the limit. */
export type BodyRead = { readonly kind: 'body'; readonly bytes: Buffer } | { readonly kind: 'too-large' };

/** Reads a request body, discarding it once it passes the size limit. */
export function readBody(req: IncomingMessage, limit: number = BODY_LIMIT_BYTES): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? { kind: 'too-large' } : { kind: 'body', bytes: Buffer.concat(chunks) }));
    req.on('error', reject);
  });
}

/** Parses a JSON body with `parse`, or returns the problem that says why it is not JSON. */
export function parseJsonBody(
  bytes: Buffer,
  parse: (text: string) => Json,
): { readonly value: Json | undefined; readonly problems: Problem[] } {
  if (bytes.length === 0) return { value: undefined, problems: [problem('', 'required', 'a JSON body is required')] };
  try {
    return { value: parse(bytes.toString('utf8')), problems: [] };
  } catch (error) {
    // The parser's message may quote the body, which may hold a secret: keep only the position.
    const position = error instanceof Error ? /position \d+/.exec(error.message)?.[0] : undefined;
    const where = position === undefined ? '' : ` (at ${position})`;
    return { value: undefined, problems: [problem('', 'malformed-json', `body is not valid JSON${where}`)] };
  }
}

/** Tells whether a Content-Type header names JSON (`application/json` or a `+json` type). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/** A JSON response with the target's content type. */
export function jsonOutgoing(status: number, body: Json, extra: Partial<Outgoing> = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body,
    delivery: 'send',
    delayMs: 0,
    ...extra,
  };
}

/** The content codings an outgoing response's `content-encoding` may name, and how each is applied. */
const ENCODERS: Readonly<Record<string, (payload: Buffer) => Buffer>> = Object.freeze({
  gzip: (payload) => gzipSync(payload),
  deflate: (payload) => deflateSync(payload),
  br: (payload) => brotliCompressSync(payload),
});

/**
 * Writes an outgoing response; a string body is sent as is, any other as JSON, coded as its `content-encoding` says
 * (gzip, deflate or br).
 */
export function writeOutgoing(res: ServerResponse, outgoing: Outgoing): void {
  const text =
    outgoing.body === undefined ? '' : typeof outgoing.body === 'string' ? outgoing.body : stringifyJson(outgoing.body);
  const encode = ENCODERS[outgoing.headers['content-encoding'] ?? ''];
  const plain = Buffer.from(text, 'utf8');
  const payload = encode && plain.length > 0 ? encode(plain) : plain;
  res.writeHead(outgoing.status, { ...outgoing.headers, 'content-length': String(payload.length) });
  res.end(payload);
}
