import * as zlib from 'node:zlib';

/**
 * An answer's body as its `Content-Encoding` says it was coded (RFC 9110, 8.4): a request that names no coding, as
 * the harness's do not, lets the server use any, and a gateway in front of a target may compress what it passes on.
 * A body is read once undone, so that every rule judges what the target meant, not its compressed bytes.
 */
export type DecodedBody =
  | { readonly body: Buffer }
  /** Undone, the body would pass `maxBytes`. */
  | { readonly tooLarge: true }
  /** A coding the run cannot undo, or a body that is not what its coding says: why, in words. */
  | { readonly unreadable: string };

type Decoder = (body: Buffer, maxOutputLength: number) => Buffer;

/** Deflate as HTTP names it is the zlib format; some servers send the raw stream, which is read as well. */
const inflate: Decoder = (body, maxOutputLength) => {
  try {
    return zlib.inflateSync(body, { maxOutputLength });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error;
    return zlib.inflateRawSync(body, { maxOutputLength });
  }
};

const gunzip: Decoder = (body, maxOutputLength) => zlib.gunzipSync(body, { maxOutputLength });

/** zstd where this Node's zlib has it (Node 22.15 and later). */
const zstd = (zlib as { zstdDecompressSync?: (body: Buffer, options: { maxOutputLength: number }) => Buffer })
  .zstdDecompressSync;

/** The codings a run undoes, by their registered names (lower-case). */
const DECODERS: Readonly<Record<string, Decoder>> = Object.freeze({
  identity: (body) => body,
  gzip: gunzip,
  'x-gzip': gunzip,
  deflate: inflate,
  br: (body, maxOutputLength) => zlib.brotliDecompressSync(body, { maxOutputLength }),
  ...(zstd ? { zstd: (body: Buffer, maxOutputLength: number) => zstd(body, { maxOutputLength }) } : {}),
});

/** The codings a run undoes, for a message. */
export const READABLE_CODINGS: readonly string[] = Object.freeze(Object.keys(DECODERS).filter((c) => c !== 'identity'));

/**
 * Undoes the codings `contentEncoding` lists (in the order they were applied, so the last first); a body of no bytes
 * is left as it is.
 */
export function decodeBody(body: Buffer, contentEncoding: string | undefined, maxBytes: number): DecodedBody {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  if (codings.length === 0 || body.length === 0) return { body };
  const unknown = codings.find((coding) => DECODERS[coding] === undefined);
  if (unknown !== undefined)
    return {
      unreadable:
        `the body is in content-coding "${unknown}", which the harness cannot read ` +
        `(it reads ${READABLE_CODINGS.join(', ')})`,
    };
  let decoded = body;
  for (const coding of [...codings].reverse()) {
    try {
      decoded = DECODERS[coding]!(decoded, maxBytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { tooLarge: true };
      return { unreadable: `the body is not the ${coding} its Content-Encoding says (${(error as Error).message})` };
    }
  }
  return decoded.length > maxBytes ? { tooLarge: true } : { body: decoded };
}
