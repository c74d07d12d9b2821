import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../cli/run.ts';
import { resolveConfig } from '../settings/config.ts';
import { heartbeat } from '../reports/progress-line.ts';
import { RULE_IDS } from '../rules/index.ts';

const HEARTBEAT = new RegExp(
  String.raw`^conformance: (\d+)\/(\d+) planned requests sent \((\d+) retried after a 429(?:, \d+ [a-z ]+)*\), ` +
    String.raw`(\d+) violations so far \(\d+ s\)$`,
);

describe('heartbeat', () => {
  it('prints after each quiet spell, and a line restarts the quiet', async () => {
    const lines: string[] = [];
    let n = 0;
    const beat = heartbeat(
      (line) => lines.push(line),
      100,
      () => `beat ${(n += 1)}`,
    );
    await sleep(350);
    const beats = lines.length;
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(lines).toEqual(lines.map((_, i) => `beat ${i + 1}`));
    for (let i = 0; i < 20; i += 1) {
      beat.line(`output ${i}`);
      await sleep(15);
    }
    expect(lines.filter((l) => l.startsWith('beat')).length).toBe(beats);
    beat.stop();
    const stopped = lines.length;
    await sleep(120);
    expect(lines.length).toBe(stopped);
  });

  it('off a terminal, a slow and rate-limited run prints heartbeat lines whose counts rise', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'heartbeat-'));
    const config = resolveConfig(
      [
        '--reference-mode',
        'slow',
        '--reference-mode',
        'rate-limit-retry-after',
        '--max-requests',
        '40',
        '--concurrency',
        '2',
        '--runs',
        '1',
        '--seed',
        '3',
        '--report-dir',
        reportDir,
      ],
      {},
      RULE_IDS,
    );
    const lines: string[] = [];
    const code = await runCommand(
      config,
      {},
      { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      undefined,
      { heartbeatMs: 300 },
    );
    expect(code).toBe(0);
    const beats = lines.flatMap((line) => {
      const match = HEARTBEAT.exec(line);
      return match ? [{ sent: Number(match[1]), planned: Number(match[2]), rateLimited: Number(match[3]) }] : [];
    });
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats.every((b, i) => i === 0 || b.sent >= beats[i - 1]!.sent)).toBe(true);
    expect(beats.at(-1)!.sent).toBeGreaterThan(beats[0]!.sent);
    expect(beats.at(-1)!.rateLimited).toBeGreaterThanOrEqual(1);
    expect(new Set(beats.map((b) => b.planned)).size).toBe(1);
    expect(beats.filter((b) => b.sent > b.planned)).toEqual([]);
  }, 60_000);
});
