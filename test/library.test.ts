import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandInputs } from '../cli/run-conformance.ts';
import { HarnessError, RULES, runConformance, startReference } from '../index.ts';

const reportDir = async (): Promise<string> => join(await mkdtemp(join(tmpdir(), 'library-')), 'out');

describe('the library entry', () => {
  it('runs the harness from code against a target started from code, credentials given as settings', async () => {
    const target = await startReference();
    try {
      const dir = await reportDir();
      const run = await runConformance({
        managementUrl: target.managementUrl,
        managementKeyId: target.managementKeyId,
        managementKeySecret: target.managementKeySecret,
        organization: target.organizationId,
        service: target.serviceId,
        backup: target.backupId,
        alertsUrl: target.alertsUrl,
        alertsToken: target.alertsToken,
        runs: 1,
        seed: 7,
        reportDir: dir,
      });
      expect(run.exitCode).toBe(0);
      expect(run.report?.outcome).toBe('passed');
      expect(run.report?.seed).toBe(7);
      expect(run.report?.target.management?.baseUrl).toBe(target.managementUrl);
      expect(new Set(run.report?.results.map((r) => r.rule))).toEqual(new Set(RULES.map((r) => r.id)));
      await access(join(dir, 'findings.json'));
    } finally {
      await target.close();
    }
  });

  it('returns exit code 1 and the failed rules when the embedded target has a fault', async () => {
    const run = await runConformance({
      referenceFault: ['auth-any-secret'],
      rules: ['auth.required', 'envelope.shape'],
      runs: 1,
      reportDir: await reportDir(),
    });
    expect(run.exitCode).toBe(1);
    expect(run.report?.outcome).toBe('failed');
    expect([...new Set(run.report?.results.filter((r) => r.outcome === 'failed').map((r) => r.rule))]).toEqual([
      'auth.required',
    ]);
  });

  it('returns the plan of a dry run without a report, and writes its lines to the output given', async () => {
    const lines: string[] = [];
    const run = await runConformance({ dryRun: true, allow: ['read'] }, { out: (line) => lines.push(line) });
    expect(run).toEqual({ exitCode: 0 });
    expect(lines.join('\n')).toMatch(/disruptive/);
  });

  it.each([
    [{ runs: 0 }, 'CONFIG_INVALID', /--runs must be a whole number from 1/],
    [{ rules: ['auth.requird'] }, 'CONFIG_INVALID', /--rules names unknown rule auth\.requird/],
    [{ managementUrl: 'http://127.0.0.1:1' }, 'CONFIG_MISSING', /MANAGEMENT_KEY_ID is not set/],
    [{ 'max-rps': 2 }, 'CONFIG_INVALID', /unknown setting "max-rps"/],
    [{ verbosity: 2 }, 'CONFIG_INVALID', /unknown setting "verbosity"/],
  ])("refuses %j with a HarnessError, through the command's resolver", async (settings, code, message) => {
    const error = await runConformance(settings as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it("maps settings to the command's flags and credentials to its variables", () => {
    expect(
      commandInputs({
        managementUrl: 'https://m.example',
        managementKeySecret: 's3cret',
        alertsToken: 't0ken',
        skipRules: ['a.b', 'c.d'],
        allow: ['read', 'write'],
        maxRequests: 100,
        dryRun: true,
        updateBaseline: false,
        shard: { index: 2, count: 3 },
        referenceMode: ['x', 'y'],
      }),
    ).toEqual({
      argv: [
        '--management-url=https://m.example',
        '--skip-rules=a.b,c.d',
        '--allow=read,write',
        '--max-requests=100',
        '--dry-run',
        '--shard=2/3',
        '--reference-mode=x',
        '--reference-mode=y',
      ],
      env: { MANAGEMENT_KEY_SECRET: 's3cret', ALERTS_TOKEN: 't0ken' },
    });
  });
});
