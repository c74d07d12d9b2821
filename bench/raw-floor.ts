import { Agent, request } from 'undici';
import type { RecordedRequest } from './proxy.ts';

/** How long sending a list of requests took with bare undici, nothing judged. */
export interface FloorResult {
  readonly requests: number;
  readonly wallMs: number;
}

const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Sends each recorded request once, to the origin it was recorded for, with undici `request`, `concurrency` at a time over a keep-alive Agent like the harness's. */
export async function rawFloor(recorded: readonly RecordedRequest[], concurrency: number): Promise<FloorResult> {
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 4_000 });
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < recorded.length) {
      const { origin, method, path, headers, body } = recorded[next++]!;
      const res = await request(new URL(path, origin), {
        method: method as 'GET',
        headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_HEADERS.has(name))) as Record<string, string>,
        ...(body.length > 0 ? { body } : {}),
        dispatcher,
      });
      await res.body.arrayBuffer();
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { requests: recorded.length, wallMs: performance.now() - started };
  } finally {
    await dispatcher.close();
  }
}
