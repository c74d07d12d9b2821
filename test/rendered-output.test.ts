import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../core/run-report.ts';
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
