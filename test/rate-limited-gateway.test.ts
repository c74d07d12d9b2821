import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressText } from '../cli/suites-run.ts';
import { createRequestGate } from '../transport/request-gate.ts';
import { runCli } from './support/cli.ts';
import { targetEnv } from './support/target-env.ts';
import { listening, passOn } from './support/proxy.ts';
import { startedInEachTest } from './support/started-in-each-test.ts';

/**
 * A gateway on port 0 in front of one API that passes its first `passed` requests on, answers the next `limited` with
 * 429 and `Retry-After: 1` (no other rate-limit header), then passes every request on: a burst of requests in flight
 * meets the limit at once.
 */
async function limitingGateway(
  upstream: string,
  passed: number,
  limited: number,
): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  let seen = 0;
  const server = createServer((req, res) => {
    seen += 1;
    if (seen > passed && seen <= passed + limited) {
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"message":"too many requests"}');
      return;
    }
    passOn(target, req, res);
  });
  return listening(server);
}

describe('behind a gateway that answers 429', () => {
  const started = startedInEachTest();

  it('many requests waiting out a 429 at once print no runtime warning', async () => {
    const reference = await started.reference();
    const scratch = await mkdtemp(join(tmpdir(), 'rate-limited-'));
    const gateway = started.server(await limitingGateway(reference.managementUrl, 60, 60));
    const run = await runCli(
      ['--concurrency', '24', '--runs', '1', '--seed', '8', '--report-dir', scratch],
      targetEnv(reference, { management: gateway.url }),
      120_000,
    );
    expect(run.stderr).not.toMatch(/MaxListenersExceededWarning|Warning:|\(node:\d+\)/);
    expect(run.code, run.stderr).toBe(0);
  }, 150_000);

  it('the gate holds every wait on one listener of the interrupt, and an interrupt ends them all', async () => {
    const gate = createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 });
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const waits = Array.from({ length: 50 }, () => gate.pause(30_000));
      gate.interrupt();
      expect(await Promise.all(waits)).toEqual(Array(50).fill(false));
      expect(await gate.pause(5)).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
    const free = createRequestGate({ concurrency: 1, maxRps: 0, deadline: Date.now() + 60_000 });
    expect(await free.pause(5)).toBe(true);
  });

  it('progress never passes its plan: retries after a 429 and shrinking are counted apart', () => {
    const started = Date.now();
    // The run: 510 planned, 53 retries after a 429 on top.
    expect(progressText({ sent: 563, rateLimited: 53, shrinking: 0, violations: 0 }, 510, started)).toBe(
      'conformance: 510/510 planned requests sent (53 retried after a 429), 0 violations so far (0 s)',
    );
    expect(progressText({ sent: 300, rateLimited: 12, shrinking: 8, violations: 3 }, 510, started)).toBe(
      'conformance: 280/510 planned requests sent (12 retried after a 429, 8 to shrink failures), 3 violations ' +
        'so far (0 s)',
    );
    expect(progressText({ sent: 515, rateLimited: 0, shrinking: 0, violations: 0 }, 510, started)).toBe(
      'conformance: 510/510 planned requests sent (0 retried after a 429, 5 beyond the plan), 0 violations so far ' +
        '(0 s)',
    );
  });
});
