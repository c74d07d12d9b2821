import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { progressText } from '../cli/suites-run.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { runCli, type CliResult } from './support/cli.ts';
import { maskVolatile, type RunFacts, stableStdout } from './support/volatile-mask.ts';

/**
 * One faulty run of a fixed seed, its rendered output pinned whole: each file under __snapshots__/faulty-run/ is the
 * file the run wrote (the terminal summary as printed off a terminal), with only what differs between two runs of
 * the seed masked (test/support/volatile-mask.ts). A change to a renderer, a probe or a verdict shows as a diff of
 * the whole file; when it is meant, `npx vitest run test/rendered-output.test.ts -u` writes the new files.
 *
 * The faults break four rules across both APIs: a secret echoed in a header (pipes), requests without credentials
 * answered (every management operation), and an alert update's answer without groupBy (alerts.update-fields and
 * response.schema).
 *
 * One request at a time (`--concurrency 1`): writes sent at once finish in any order, and with them the order of the
 * resources summary.md lists (and which of them fit in its first 100 rows).
 */
const SEED = '7';
const FAULTS = ['auth-missing-accepted', 'secret-in-header', 'alerts-group-by-missing'];

describe('the rendered output of a faulty run (seed 7)', () => {
  let run: CliResult;
  let reportDir: string;
  let facts: RunFacts;

  beforeAll(async () => {
    reportDir = join(await mkdtemp(join(tmpdir(), 'rendered-')), 'out');
    const args = [
      '--seed',
      SEED,
      '--concurrency',
      '1',
      ...FAULTS.flatMap((f) => ['--reference-fault', f]),
      '--report-dir',
      reportDir,
    ];
    // Off a terminal (a pipe), and colour refused outright whatever the environment vitest runs in sets.
    run = await runCli(args, { NO_COLOR: '1', FORCE_COLOR: '0' });
    const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport & {
      toolVersion: string;
    };
    const management = report.target.management!;
    facts = {
      managementUrl: management.baseUrl,
      alertsUrl: report.target.alerts!.baseUrl,
      organizationId: management.organizationId!,
      serviceId: management.serviceId!,
      ...(management.backupId ? { backupId: management.backupId } : {}),
      startedAt: report.startedAt,
      reportDir,
      toolVersion: report.toolVersion,
    };
  });

  const file = async (name: string): Promise<string> =>
    maskVolatile(await readFile(join(reportDir, name), 'utf8'), facts);

  it('fails with exit 1, printing nothing on standard error, in no colour', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('terminal summary', async () => {
    await expect(maskVolatile(stableStdout(run.stdout), facts)).toMatchFileSnapshot(
      '__snapshots__/faulty-run/terminal.txt',
    );
  });

  it('summary.md', async () => {
    await expect(await file('summary.md')).toMatchFileSnapshot('__snapshots__/faulty-run/summary.md');
  });

  it('junit.xml', async () => {
    await expect(await file('junit.xml')).toMatchFileSnapshot('__snapshots__/faulty-run/junit.xml');
  });

  it('results.sarif', async () => {
    await expect(await file('results.sarif')).toMatchFileSnapshot('__snapshots__/faulty-run/results.sarif');
  });
});

describe('the masks of the snapshots', () => {
  const facts: RunFacts = {
    managementUrl: 'http://127.0.0.1:41483',
    alertsUrl: 'http://127.0.0.1:33081',
    organizationId: 'd7ab3bfe-8a92-436e-a3b9-aca40f41f22f',
    serviceId: '2e0a834e-3562-4a3e-8d65-82ed0d2d2cbd',
    startedAt: '2026-12-02T00:52:08.402Z',
    reportDir: '/tmp/rendered-x/out',
    toolVersion: '0.1.0',
  };

  it('hide what the run drew or read off the clock, and keep what the seed drew and the rest as rendered', () => {
    const text = [
      "curl 'http://127.0.0.1:41483/v1/organizations/d7ab3bfe-8a92-436e-a3b9-aca40f41f22f/keys' (port 4100)",
      'pipe c69a1dfe-81a8-4088-a967-a1c1f2617f27, then 1b7e9f3a-0c4d-4e5f-8a6b-7c8d9e0f1a2b, then c69a1dfe-81a8-4088-' +
        'a967-a1c1f2617f27; alert 2530dc9787c8a478a8791f9d; fingerprint ' +
        'f47396209814dc147d75d58c8869b7edf47396209814dc147d75d58c8869b7ed',
      'expireAt 2026-12-02T01:52:09.000Z; 30 days on 2027-01-01T00:52:09.000Z; offset 2020-01-01T00:22; 2026-12-02',
      '<testsuites time="1.914" timestamp="2026-12-02T00:52:08.402Z">; 517 requests in 1.9 s; 3 ms',
      '"version": "2.1.0", "name": "contract-conformance",\n  "version": "0.1.0", "semanticVersion": "0.1.0"',
      'Reports in /tmp/rendered-x/out: summary.md; alerts http://127.0.0.1:33081; other http://127.0.0.1:41484',
    ].join('\n');
    expect(maskVolatile(text, facts)).toBe(
      [
        "curl 'http://127.0.0.1:<management-port>/v1/organizations/<organization-id>/keys' (port 4100)",
        'pipe <uuid-1>, then <uuid-2>, then <uuid-1>; alert <hex-id-1>; fingerprint ' +
          'f47396209814dc147d75d58c8869b7edf47396209814dc147d75d58c8869b7ed',
        'expireAt <clock-time>; 30 days on 2027-01-01T00:52:09.000Z; offset 2020-01-01T00:22; 2026-12-02',
        '<testsuites time="<seconds>" timestamp="<started-at>">; 517 requests in <duration>; 3 ms',
        '"version": "2.1.0", "name": "contract-conformance",\n  "version": "<tool-version>", ' +
          '"semanticVersion": "<tool-version>"',
        'Reports in <report-dir>: summary.md; alerts http://127.0.0.1:<alerts-port>; other http://127.0.0.1:41484',
      ].join('\n'),
    );
  });

  it("sort the suites' lines, printed as each suite ends, and drop the heartbeat", () => {
    // The heartbeat as the run prints it, with a plan and without one.
    const progress = { sent: 40, rateLimited: 0, shrinking: 0, violations: 3 };
    const printed = [
      'conformance: seed 7; management http://127.0.0.1:1; alerts http://127.0.0.1:2 (embedded reference target)',
      '✗ usage: 16 passed, 1 failed, 0 skipped (49 requests)',
      progressText(progress, 514, Date.now() - 5000),
      '✓ alerts: 27 passed, 0 failed, 1 skipped (102 requests)',
      progressText(progress, undefined, Date.now() - 10_000),
      '',
      'FAILED: 1 failed, 43 passed',
    ];
    expect(stableStdout(printed.join('\n')).split('\n')).toEqual([
      printed[0],
      printed[3],
      printed[1],
      '',
      'FAILED: 1 failed, 43 passed',
    ]);
  });
});
