import { OpenValues } from '../suites/pipes/open-values.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { RULE_IDS } from '../rules/index.ts';
import { ALERT_SEQUENCE_STEPS, alertSequences } from '../suites/alerts/sequence-alerts.ts';
import { pipeSequences } from '../suites/pipes/sequence-pipes.ts';
import { failedRules, runInProcess } from './support/in-process.ts';
import { judgedRules, UNPROBED } from './support/unprobed.ts';

/** A dry run's total, and the `--max-requests` that holds it with the put-backs it keeps (the total without any). */
async function dryRunTotal(args: string[]): Promise<{ total: number; fits: number; text: string }> {
  const lines: string[] = [];
  const code = await main(['--dry-run', ...args], {}, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(code).toBe(0);
  const text = lines.join('\n');
  const total = Number(/Total: (\d+) request/.exec(text)?.[1]);
  return { total, fits: Number(/fits in --max-requests (\d+)\./.exec(text)?.[1] ?? total), text };
}

describe('the plan', () => {
  it('--dry-run prints the plan and sends nothing to a configured target', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const lines: string[] = [];
    const env = {
      MANAGEMENT_BASE_URL: url,
      MANAGEMENT_KEY_ID: 'k',
      MANAGEMENT_KEY_SECRET: 'dry-run-secret',
      ORGANIZATION_ID: 'o',
      SERVICE_ID: 's',
    };
    const code = await main(['--dry-run', '--allow', 'read,write'], env, {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    server.close();
    expect(code).toBe(0);
    expect(requests).toBe(0);
    const text = lines.join('\n');
    expect(text).toMatch(
      /service \/ stop, then start +disruptive +skipped: probes of class disruptive are not allowed/,
    );
    expect(text).toMatch(/alerts \/ list alerts .*skipped: the alerts API is not under test: ALERTS_BASE_URL/);
    expect(text).toMatch(/backups \/ read the configured backup .*skipped: BACKUP_ID/);
    expect(text).not.toContain('dry-run-secret');
  });

  it.each([['8'], ['2']])(
    '--dry-run shows the requests the model-based sequences plan, per API, and why they are left out (--runs %s)',
    async (runs) => {
      const { text } = await dryRunTotal(['--runs', runs]);
      const planned = (group: string): number =>
        Number(new RegExp(`^ *(\\d+) ${group} +write +`, 'm').exec(text)?.[1] ?? Number.NaN);
      expect(planned('pipes / model-based sequences of pipes')).toBe(
        pipeSequences(new OpenValues(), 'learn').estimate(Number(runs)),
      );
      // The alerts' sequences, then the put-back of the alert under test.
      expect(planned('alerts / model-based sequences of alert updates')).toBe(
        alertSequences(Number(runs)) * (ALERT_SEQUENCE_STEPS + 2) + 1,
      );
      const { text: read } = await dryRunTotal(['--runs', runs, '--allow', 'read']);
      for (const group of ['pipes / model-based sequences of pipes', 'alerts / model-based sequences of alert updates'])
        expect(read).toMatch(
          new RegExp(`^ +- ${group} +write +skipped: probes of class write are not allowed \\(--allow read\\)`, 'm'),
        );
    },
  );

  it.each([['8'], ['1']])('counts exactly the requests a clean run sends (--runs %s)', async (runs) => {
    const { total } = await dryRunTotal(['--runs', runs]);
    const run = await runInProcess(['--runs', runs, '--seed', '3']);
    expect(run.code).toBe(0);
    expect(run.report.stats.requests).toBe(total);
  });

  it('--max-requests at the plan of one example per property still judges every rule, within the budget', async () => {
    const { total, fits: minimum } = await dryRunTotal(['--runs', '1']);
    // Put-backs that only a target breaking the contract makes the run send are kept beyond the total.
    expect(minimum).toBeGreaterThan(total);
    const run = await runInProcess(['--max-requests', String(minimum), '--seed', '5']);
    expect(run.code).toBe(0);
    expect(run.output).not.toContain('is below the');
    expect(failedRules(run.report)).toEqual([]);
    expect(run.report.stats.requests).toBe(total);
    expect(judgedRules(run.report.results).filter((r) => r.outcome === 'skipped')).toEqual([]);
    const passed = new Set(run.report.results.filter((r) => r.outcome === 'passed').map((r) => r.rule));
    expect(RULE_IDS.filter((id) => !passed.has(id) && !UNPROBED.has(id))).toEqual([]);
  });

  it(
    '--dry-run --shard i/n shows the part: whole suites, each in one part, the same split for every setting, ' +
      'the parts adding up to the whole',
    async () => {
      const suitesIn = (text: string): string[] => [
        ...new Set([...text.matchAll(/^ +(?:\d+|-) (\w+) \/ /gm)].map((m) => m[1]!)),
      ];
      const whole = await dryRunTotal(['--runs', '2']);
      const parts = await Promise.all([1, 2, 3].map((i) => dryRunTotal(['--runs', '2', '--shard', `${i}/3`])));
      expect(parts.map((p) => suitesIn(p.text).length).every((n) => n > 0)).toBe(true);
      expect(parts.flatMap((p) => suitesIn(p.text)).sort()).toEqual(suitesIn(whole.text).sort());
      expect(parts.reduce((n, p) => n + p.total, 0)).toBe(whole.total);
      const narrowed = await Promise.all(
        [1, 2, 3].map((i) => dryRunTotal(['--runs', '5', '--allow', 'read', '--shard', `${i}/3`])),
      );
      expect(narrowed.map((p) => suitesIn(p.text))).toEqual(parts.map((p) => suitesIn(p.text)));
      // Balanced: no part holds much more than the largest suite (pipes, with its model-based sequences, about half the
      // run).
      expect(Math.max(...parts.map((p) => p.total))).toBeLessThanOrEqual(whole.total * 0.55);
      // --max-requests holds per shard, with the same examples per property in every shard (so that the merge matches).
      // 190: the pipes shard, about half of a run with its sequences, fits two examples per property (184 requests).
      const bounded = await Promise.all(
        [1, 2, 3].map((i) => dryRunTotal(['--max-requests', '190', '--shard', `${i}/3`])),
      );
      const runsOf = (text: string): number => Number(/; (\d+) example\(s\) per property/.exec(text)?.[1]);
      expect(new Set(bounded.map((p) => runsOf(p.text))).size).toBe(1);
      expect(runsOf(bounded[0]!.text)).toBeGreaterThan(1);
      expect(Math.max(...bounded.map((p) => p.total))).toBeLessThanOrEqual(190);
      expect(Math.max(...bounded.map((p) => p.total))).toBeGreaterThan(80);
    },
  );

  it('--shard with more parts than suites is refused, naming the most', async () => {
    const lines: string[] = [];
    const code = await main(
      ['--dry-run', '--shard', '5/7'],
      {},
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
    );
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain(
      '--shard 5/7: a shard runs whole suites, and the run has 6: give --shard i/n with n at most 6. [CONFIG_INVALID]',
    );
  });

  it('--max-requests below the essential probes warns and stops at the budget', async () => {
    const run = await runInProcess(['--max-requests', '40', '--seed', '5']);
    expect(run.output).toMatch(/--max-requests 40 is below the \d+ requests that one example per property needs/);
    expect(run.report.stats.requests).toBeLessThanOrEqual(40);
    expect(
      run.report.results.some(
        (r) =>
          r.outcome === 'skipped' &&
          r.skipKind === 'not-judged' &&
          /was cut: the run reached --max-requests/.test(r.message),
      ),
    ).toBe(true);
  });
});
