import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, resolveSettings } from '../settings/config.ts';
import { HarnessError, RULES, runConformance, startReference } from '../index.ts';
import { RULE_IDS } from '../rules/index.ts';
import { conformanceSuites } from '../vitest.ts';

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

  it("takes startReference()'s settings as they are: a run on them judges every id, the other tenant too", async () => {
    const target = await startReference();
    try {
      expect(target.settings).toEqual({
        managementUrl: target.managementUrl,
        managementKeyId: target.managementKeyId,
        managementKeySecret: target.managementKeySecret,
        organization: target.organizationId,
        service: target.serviceId,
        backup: target.backupId,
        managementOtherKeyId: expect.any(String),
        managementOtherKeySecret: expect.any(String),
        managementOtherOrganizationId: expect.any(String),
        alertsUrl: target.alertsUrl,
        alertsToken: target.alertsToken,
        alertsOtherToken: expect.any(String),
        alert: expect.any(String),
      });
      const lines: string[] = [];
      const run = await runConformance(
        { ...target.settings, runs: 1, seed: 7, reportDir: await reportDir() },
        { out: (line) => lines.push(line) },
      );
      expect(lines.join('\n')).toMatch(/preflight: management credentials, organization, service and backup ok, other/);
      expect(run.exitCode).toBe(0);
      expect(run.report?.target.management).toMatchObject({ backupId: target.backupId });
    } finally {
      await target.close();
    }
  });

  it('refuses, at type-check time, a key no setting has, in a variable or a spread as in a literal', () => {
    const misspelt = { managementUrl: 'http://127.0.0.1:1', managmentUrl: 'http://127.0.0.1:1' };
    // Never called: the type check (tsc --noEmit, test/typecheck.test.ts) fails where a directive below has no error.
    const calls = async (target: Awaited<ReturnType<typeof startReference>>) => {
      // @ts-expect-error managmentUrl is no setting
      await runConformance(misspelt);
      // @ts-expect-error organizationId, serviceId, close... are no settings: its `settings` are
      await runConformance({ ...target, reportDir: 'out' });
      // @ts-expect-error managmentUrl is no setting
      await conformanceSuites(misspelt);
      await runConformance({ ...target.settings, reportDir: 'out' });
    };
    expect(typeof calls).toBe('function');
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
    [{ runs: 0 }, 'CONFIG_INVALID', /^runs must be a whole number from 1 to 10000, not 0\.$/],
    [{ runs: 'abc' }, 'CONFIG_INVALID', /^runs must be a whole number from 1 to 10000, not "abc"\.$/],
    [{ rules: ['auth.requird'] }, 'CONFIG_INVALID', /^rules names unknown rule auth\.requird/],
    [{ allow: 5 }, 'CONFIG_INVALID', /^allow must be a list of strings, not 5\.$/],
    [{ dryRun: 'yes' }, 'CONFIG_INVALID', /^dryRun must be true or false, not "yes"\.$/],
    [{ shard: { index: 3, count: 2 } }, 'CONFIG_INVALID', /^shard must be i\/n with 1 <= i <= n/],
    [{ har: ' ' }, 'CONFIG_INVALID', /^har needs a path/],
    [{ updateBaseline: true }, 'CONFIG_INVALID', /^updateBaseline needs baseline FILE/],
    [{ managementUrl: 'http://127.0.0.1:1' }, 'CONFIG_MISSING', /^managementKeyId is not set: it is the management/],
    [{ managementUrl: '' }, 'CONFIG_MISSING', /^managementUrl is set but empty: give it a value, or unset it\.$/],
    [{ managementUrl: 'ftp://x' }, 'CONFIG_INVALID', /^managementUrl must use http or https/],
    [
      { alertsToken: 't' },
      'CONFIG_MISSING',
      /^alertsUrl is not set, but alertsToken is: set alertsUrl to the base URL/,
    ],
    [{ alertsUrl: 'http://a.test', alertsToken: 't', referenceFault: ['x'] }, 'CONFIG_INVALID', /^referenceFault and /],
    [{ 'max-rps': 2 }, 'CONFIG_INVALID', /^unknown setting "max-rps"/],
    [{ verbosity: 2 }, 'CONFIG_INVALID', /^unknown setting "verbosity"/],
  ])('refuses %j with a HarnessError naming the key it was given', async (settings, code, message) => {
    const error = await runConformance(settings as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('resolves an object as the command resolves the same flags and variables', () => {
    const object = resolveSettings(
      {
        managementUrl: 'https://m.example',
        managementKeyId: 'kid',
        managementKeySecret: 's3cret',
        organization: 'org',
        service: 'svc',
        alertsUrl: 'https://a.example',
        alertsToken: 't0ken',
        alert: 'al',
        skipRules: ['auth.required', 'envelope.shape'],
        allow: ['read', 'write'],
        maxRequests: 100,
        seed: 7,
        dryRun: true,
        updateBaseline: false,
        shard: { index: 2, count: 3 },
      },
      RULE_IDS,
    );
    const command = resolveConfig(
      [
        '--management-url=https://m.example',
        '--organization=org',
        '--service=svc',
        '--alerts-url=https://a.example',
        '--alert=al',
        '--skip-rules=auth.required,envelope.shape',
        '--allow=read,write',
        '--max-requests=100',
        '--seed=7',
        '--dry-run',
        '--shard=2/3',
      ],
      { MANAGEMENT_KEY_ID: 'kid', MANAGEMENT_KEY_SECRET: 's3cret', ALERTS_TOKEN: 't0ken' },
      RULE_IDS,
    );
    // Each names the settings as its caller did: the library by its keys, the command by its flags and variables.
    const { names: objectNames, ...objectRest } = object;
    const { names: commandNames, ...commandRest } = command;
    expect(objectRest).toEqual({ ...commandRest, allowFrom: { given: true, name: 'allow' } });
    expect(command.allowFrom).toEqual({ given: true, name: '--allow' });
    expect([objectNames.SERVICE_ID, objectNames.MANAGEMENT_BASE_URL, objectNames.MANAGEMENT_KEY_ID]).toEqual([
      'service',
      'managementUrl',
      'managementKeyId',
    ]);
    expect([commandNames.SERVICE_ID, commandNames.MANAGEMENT_BASE_URL, commandNames.MANAGEMENT_KEY_ID]).toEqual([
      '--service',
      '--management-url',
      'MANAGEMENT_KEY_ID',
    ]);
    expect(resolveSettings({ referenceMode: ['x', 'y'] }, RULE_IDS).reference).toEqual({
      faults: [],
      modes: ['x', 'y'],
    });
  });
});
