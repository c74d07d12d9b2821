import { describe, expect, it } from 'vitest';
import { startReference } from '../reference/server.ts';
import { runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';
import { targetEnv } from './support/target-env.ts';

/** The requests of a run as comparable lines: ids the target or the clock chose are masked. */
function requestLines(log: readonly WireExchange[]): string[] {
  const mask = (text: string): string =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/\b[0-9a-f]{24}\b/g, '<target id>')
      .replace(/conformance-unknown-\d+/g, 'conformance-unknown-<n>')
      .replace(/"expireAt":"[^"]+"/g, '"expireAt":"<within a day of now>"')
      // The expiry probe names each key after the expireAt it sends, which the clock chose.
      .replace(/conformance expiry [^"]+/g, 'conformance expiry <within a day of now>')
      // Fresh on every run, in a replay too, and nothing else is: what a broken target could make a key's credentials
      // must not be computable from a seed that every report prints. So each key create's hashData is made of a fresh
      // key id and secret when it is sent (only its hashes and suffix are masked: an odd value the neighbourhood
      // appends to one is the seed's, and compared), and so are the keyId and keySecret that the probe of fields only
      // the server writes sends.
      .replace(/("keyIdHash":")[0-9a-f]{64}/g, '$1<fresh>')
      .replace(/("keyIdSuffix":")[0-9a-f]{4}/g, '$1<fresh>')
      .replace(/("keySecretHash":")[0-9a-f]{64}/g, '$1<fresh>')
      .replace(/"(keyId|keySecret)":"conformance-(id|secret)-[\w-]+"/g, '"$1":"<fresh>"');
  return log.map((e) => `${e.method} ${mask(e.path)} ${mask(e.requestBody)}`).sort();
}

async function recordRun(seed: string): Promise<string[]> {
  const reference = await startReference();
  const log: WireExchange[] = [];
  const management = await recordingProxy(reference.managementUrl, log);
  const alerts = await recordingProxy(reference.alertsUrl, log);
  try {
    // One request at a time: after writes sent at once, the model holds what the order the target chose left, and
    // later values are drawn against it, so only a run without them replays byte for byte.
    const run = await runInProcess(['--runs', '3', '--seed', seed, '--concurrency', '1'], {
      ...targetEnv(reference, { management: management.url, alerts: alerts.url }),
    });
    expect(run.code).toBe(0);
    return requestLines(log);
  } finally {
    for (const proxy of [management, alerts]) {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
    await reference.close();
  }
}

describe('--seed', () => {
  it('replays a run: the same seed sends the same requests, another seed different ones', async () => {
    const first = await recordRun('424242');
    const again = await recordRun('424242');
    const other = await recordRun('77');
    expect(first.length).toBeGreaterThan(100);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });
});
