import { describe, expect, it } from 'vitest';
import { resolveConfig, resolveSettings } from '../settings/config.ts';
import { isHarnessError } from '../core/errors.ts';
import { RULE_IDS } from '../rules/index.ts';

const full = {
  MANAGEMENT_BASE_URL: 'https://api.example.test/',
  MANAGEMENT_KEY_ID: 'kid',
  MANAGEMENT_KEY_SECRET: 'ksecret',
  ORGANIZATION_ID: 'org',
  SERVICE_ID: 'svc',
};

const failure = (argv: string[], env: Record<string, string>): { code: string; message: string } => {
  try {
    resolveConfig(argv, env, RULE_IDS);
  } catch (error) {
    if (isHarnessError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the config to be rejected');
};

describe('resolveConfig', () => {
  it('uses the embedded reference target when no URL is set', () => {
    const config = resolveConfig([], {}, RULE_IDS);
    expect(config.reference).toEqual({ faults: [], modes: [] });
    expect(config.rules).toEqual(RULE_IDS);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the environment and lets a flag win', () => {
    const config = resolveConfig(['--organization', 'flag-org', '--seed', '7'], full, RULE_IDS);
    expect(config.management).toEqual({
      baseUrl: 'https://api.example.test',
      keyId: 'kid',
      keySecret: 'ksecret',
      organizationId: 'flag-org',
      serviceId: 'svc',
    });
    expect(config.alerts).toBeUndefined();
    expect(config.unconfigured.alerts).toMatch(/ALERTS_BASE_URL/);
    expect(config.seed).toBe(7);
  });

  it.each([
    [{ ...full, MANAGEMENT_KEY_SECRET: '' }, [], 'CONFIG_MISSING', /MANAGEMENT_KEY_SECRET/],
    [{ ...full, SERVICE_ID: '' }, [], 'CONFIG_MISSING', /SERVICE_ID/],
    [{ ALERTS_BASE_URL: 'http://127.0.0.1:9' }, [], 'CONFIG_MISSING', /ALERTS_TOKEN/],
    [
      { ...full, OTHER_MANAGEMENT_KEY_ID: 'other-kid' },
      [],
      'CONFIG_MISSING',
      /^OTHER_MANAGEMENT_KEY_SECRET is not set: it is the management API key secret of another organization/,
    ],
    [{ ...full, OTHER_ALERTS_TOKEN: 'other-token' }, [], 'CONFIG_MISSING', /ALERTS_BASE_URL .* OTHER_ALERTS_TOKEN is/],
    [
      { ...full, MANAGEMENT_BASE_URL: 'ftp://x' },
      [],
      'CONFIG_INVALID',
      /MANAGEMENT_BASE_URL must use http or https, not ftp: give an absolute http\(s\) URL/,
    ],
    [{ ...full, MANAGEMENT_BASE_URL: 'not a url' }, [], 'CONFIG_INVALID', /not a URL/],
    [full, ['--runs', 'many'], 'CONFIG_INVALID', /--runs/],
    [full, ['--rules', 'envelope.shape,no.such-rule'], 'CONFIG_INVALID', /no\.such-rule/],
    [full, ['--allow', 'read,delete'], 'CONFIG_INVALID', /--allow/],
    [full, ['--shard', '3/2'], 'CONFIG_INVALID', /--shard/],
    [full, ['--bogus'], 'CONFIG_INVALID', /bogus/],
    // Node's three-line message for a value that starts with a dash, as one sentence after another.
    [
      full,
      ['--max-rps', '-1'],
      'CONFIG_INVALID',
      new RegExp(
        String.raw`^Option '--max-rps' argument is ambiguous\. Did you forget [^\n]*'--max-rps=-XYZ'\. ` +
          'Run `conformance --help` for the flags\\.$',
      ),
    ],
    [full, ['--update-baseline'], 'CONFIG_INVALID', /--baseline/],
    [full, ['--reference-fault', 'x'], 'CONFIG_INVALID', /reference/],
  ] as const)('rejects bad settings with a message naming the setting (%#)', (env, argv, code, pattern) => {
    const error = failure([...argv], env);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(pattern);
  });

  it.each([
    [
      'an empty base URL with the keys set',
      { ...full, MANAGEMENT_BASE_URL: '' },
      [],
      'CONFIG_MISSING',
      /^MANAGEMENT_BASE_URL is set but empty/,
    ],
    [
      'an empty optional id',
      { ...full, BACKUP_ID: '' },
      [],
      'CONFIG_MISSING',
      /^BACKUP_ID is set but empty.*vars\.BACKUP_ID/,
    ],
    [
      'only empty variables',
      { MANAGEMENT_BASE_URL: '', ALERTS_BASE_URL: '' },
      [],
      'CONFIG_MISSING',
      /^MANAGEMENT_BASE_URL is set but empty/,
    ],
    ['an empty flag', full, ['--organization', ' '], 'CONFIG_MISSING', /^--organization is set but empty/],
    [
      'the keys and ids without a base URL',
      { MANAGEMENT_KEY_ID: 'kid', MANAGEMENT_KEY_SECRET: 's', ORGANIZATION_ID: 'org' },
      [],
      'CONFIG_MISSING',
      new RegExp(
        String.raw`^MANAGEMENT_BASE_URL \(--management-url\) is not set, ` +
          'but MANAGEMENT_KEY_ID, MANAGEMENT_KEY_SECRET, ORGANIZATION_ID are',
      ),
    ],
    [
      'an id flag without a base URL',
      {},
      ['--service', 'svc'],
      'CONFIG_MISSING',
      /^MANAGEMENT_BASE_URL .*is not set, but --service is/,
    ],
    [
      'the alerts token without its base URL',
      { ...full, ALERTS_TOKEN: 'tok' },
      [],
      'CONFIG_MISSING',
      /^ALERTS_BASE_URL \(--alerts-url\) is not set, but ALERTS_TOKEN is/,
    ],
    [
      'an alert id without its base URL',
      { ALERT_ID: 'a1' },
      [],
      'CONFIG_MISSING',
      /^ALERTS_BASE_URL .*is not set, but ALERT_ID is/,
    ],
    [
      '/v1 in the management base URL',
      { ...full, MANAGEMENT_BASE_URL: 'https://api.example.test/v1/' },
      [],
      'CONFIG_INVALID',
      /^MANAGEMENT_BASE_URL ends with \/v1.*drop \/v1 and give https:\/\/api\.example\.test\./,
    ],
    [
      '/V1 in a management URL with a path',
      { ...full, MANAGEMENT_BASE_URL: 'https://gw.example.test/cloud/V1' },
      [],
      'CONFIG_INVALID',
      /give https:\/\/gw\.example\.test\/cloud\./,
    ],
    [
      '/api/v2 in the alerts base URL',
      { ALERTS_BASE_URL: 'https://alerts.example.test/api/v2', ALERTS_TOKEN: 't' },
      ['--alerts-url', 'https://alerts.example.test/api/v2'],
      'CONFIG_INVALID',
      /^--alerts-url ends with \/api\/v2.*drop \/api\/v2/,
    ],
    [
      'a reference fault with a stray target variable',
      { ORGANIZATION_ID: 'org', MANAGEMENT_BASE_URL: 'https://x.test' },
      ['--reference-fault', 'x'],
      'CONFIG_INVALID',
      /embedded reference target only.*MANAGEMENT_BASE_URL, ORGANIZATION_ID are set/,
    ],
  ] as const)('a target setting given wrong is exit 2 naming it: %s', (_what, env, argv, code, pattern) => {
    const error = failure([...argv], env);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(pattern);
  });

  it.each([
    [
      'MANAGEMENT_KEY_ID',
      'MANAGEMENT_KEY_ID is not set: it is the management API key id (HTTP Basic user), needed for this ' +
        'target. Set it and run again.',
    ],
    [
      'MANAGEMENT_KEY_SECRET',
      'MANAGEMENT_KEY_SECRET is not set: it is the management API key secret (HTTP Basic password), needed ' +
        'for this target. Set it and run again.',
    ],
    [
      'ORGANIZATION_ID',
      'ORGANIZATION_ID (or --organization) is not set: it is the organization to run against, needed for ' +
        'this target. Set it and run again.',
    ],
    [
      'SERVICE_ID',
      'SERVICE_ID (or --service) is not set: it is the service that owns the pipes the run creates, needed ' +
        'for this target. Set it and run again.',
    ],
  ] as const)('a required setting left unset is CONFIG_MISSING saying what it is: %s', (variable, message) => {
    const { [variable]: _left, ...env } = full;
    expect(failure([], env)).toEqual({ code: 'CONFIG_MISSING', message });
  });

  it('names the alerts token when only its base URL is set, and why each API is not under test', () => {
    expect(failure([], { ALERTS_BASE_URL: 'https://alerts.example.test' })).toEqual({
      code: 'CONFIG_MISSING',
      message:
        'ALERTS_TOKEN is not set: it is the Bearer token of the alerts API, needed for this target. Set it ' +
        'and run again.',
    });
    expect(resolveConfig([], full, RULE_IDS).unconfigured).toEqual({
      alerts: 'ALERTS_BASE_URL (--alerts-url) is not set',
    });
    expect(resolveConfig([], { ALERTS_BASE_URL: 'https://a.test', ALERTS_TOKEN: 't' }, RULE_IDS).unconfigured).toEqual({
      management: 'MANAGEMENT_BASE_URL (--management-url) is not set',
    });
    expect(resolveConfig([], {}, RULE_IDS).unconfigured).toEqual({});
  });

  it('fills every field of a target its descriptor names, optional ids included', () => {
    const config = resolveConfig(
      ['--backup', ' b1 ', '--alerts-url', 'https://alerts.example.test/', '--alert', 'a1'],
      { ...full, ALERTS_TOKEN: ' tok ' },
      RULE_IDS,
    );
    expect(config.management).toEqual({
      baseUrl: 'https://api.example.test',
      keyId: 'kid',
      keySecret: 'ksecret',
      organizationId: 'org',
      serviceId: 'svc',
      backupId: 'b1',
    });
    expect(config.alerts).toEqual({ baseUrl: 'https://alerts.example.test', token: ' tok ', alertId: 'a1' });
    expect(config.unconfigured).toEqual({});
  });

  it('tests the embedded reference target only when no target setting at all is present', () => {
    expect(resolveConfig([], { PATH: '/usr/bin', GITHUB_ACTIONS: 'true' }, RULE_IDS).reference).toEqual({
      faults: [],
      modes: [],
    });
    const alertsOnly = resolveConfig(
      [],
      { ALERTS_BASE_URL: 'https://alerts.example.test/', ALERTS_TOKEN: 'tok', ALERT_ID: ' a1 ' },
      RULE_IDS,
    );
    expect(alertsOnly.reference).toBeUndefined();
    expect(alertsOnly.alerts).toEqual({ baseUrl: 'https://alerts.example.test', token: 'tok', alertId: 'a1' });
    expect(alertsOnly.unconfigured.management).toMatch(/MANAGEMENT_BASE_URL/);
  });

  it('keeps a base URL whose path merely contains the prefix elsewhere', () => {
    const config = resolveConfig([], { ...full, MANAGEMENT_BASE_URL: 'https://api.example.test/v1x/' }, RULE_IDS);
    expect(config.management?.baseUrl).toBe('https://api.example.test/v1x');
  });

  it('narrows rules with --rules and --skip-rules', () => {
    const config = resolveConfig(
      ['--rules', 'envelope.shape,auth.required', '--skip-rules', 'auth.required'],
      {},
      RULE_IDS,
    );
    expect(config.rules).toEqual(['envelope.shape']);
  });

  it('names the flag or variable in the command, the key in a settings object', () => {
    const objectFailure = (given: object): { code: string; message: string } => {
      try {
        resolveSettings(given, RULE_IDS);
      } catch (error) {
        if (isHarnessError(error)) return { code: error.code, message: error.message };
        throw error;
      }
      throw new Error('expected the settings to be rejected');
    };
    expect(failure(['--runs', 'abc'], {}).message).toBe('--runs must be a whole number from 1 to 10000, not "abc".');
    expect(objectFailure({ runs: 'abc' }).message).toBe('runs must be a whole number from 1 to 10000, not "abc".');
    expect(failure(['--max-rps', '1.5'], {}).message).toMatch(/^--max-rps must be a whole number/);
    expect(objectFailure({ maxRps: 1.5 }).message).toBe('maxRps must be a whole number from 0 to 100000, not 1.5.');
    expect(failure(['--allow', 'all'], {}).message).toMatch(/^--allow takes a list of read, write, disruptive; "all"/);
    expect(objectFailure({ allow: ['all'] }).message).toMatch(
      /^allow takes a list of read, write, disruptive; \["all"\]/,
    );
    expect(failure([], { MANAGEMENT_BASE_URL: 'https://m.test' }).message).toMatch(/^MANAGEMENT_KEY_ID is not set/);
    expect(objectFailure({ managementUrl: 'https://m.test' }).message).toMatch(/^managementKeyId is not set/);
    expect(objectFailure({ managementUrl: 'https://m.test', managementKeyId: 'k', managementKeySecret: 's' })).toEqual({
      code: 'CONFIG_MISSING',
      message:
        'organization is not set: it is the organization to run against, needed for this target. Set it and run again.',
    });
    expect(failure([], { ALERT_ID: 'a' }).message).toMatch(
      /^ALERTS_BASE_URL \(--alerts-url\) is not set, but ALERT_ID is: set ALERTS_BASE_URL/,
    );
    expect(objectFailure({ alert: 'a' }).message).toMatch(/^alertsUrl is not set, but alert is: set alertsUrl to/);
    expect(objectFailure({ shard: '1/2x' })).toEqual({
      code: 'CONFIG_INVALID',
      message: 'shard must be i/n with 1 <= i <= n, such as 1/3, not "1/2x".',
    });
    expect(
      resolveSettings({ runs: 3, seed: 9, shard: '2/3' as never, rules: ['auth.required'] }, RULE_IDS),
    ).toMatchObject({
      runs: 3,
      seed: 9,
      shard: { index: 2, count: 3 },
      rules: ['auth.required'],
    });
  });
});

describe("another tenant's settings", () => {
  it("are read all together into the target, and their secrets are redacted like the run's own", async () => {
    const { runSecrets } = await import('../apis/index.ts');
    const config = resolveConfig(
      [],
      {
        ...full,
        OTHER_MANAGEMENT_KEY_ID: 'other-kid',
        OTHER_MANAGEMENT_KEY_SECRET: 'other-secret',
        OTHER_ORGANIZATION_ID: 'other-org',
        ALERTS_BASE_URL: 'http://127.0.0.1:9',
        ALERTS_TOKEN: 'token-value',
        OTHER_ALERTS_TOKEN: 'other-token',
      },
      RULE_IDS,
    );
    expect(config.management).toMatchObject({
      otherKeyId: 'other-kid',
      otherKeySecret: 'other-secret',
      otherOrganizationId: 'other-org',
    });
    expect(config.alerts).toMatchObject({ otherToken: 'other-token' });
    expect(runSecrets(config).sort()).toEqual(['ksecret', 'other-secret', 'other-token', 'token-value']);
    expect(resolveConfig([], full, RULE_IDS).management).not.toHaveProperty('otherKeyId');
  });
});

describe("another tenant's settings in a settings object", () => {
  it('are keyed <api><Field>, all or none, and an error names the key', () => {
    const given = {
      managementUrl: 'https://api.example.test/',
      managementKeyId: 'kid',
      managementKeySecret: 'ksecret',
      organization: 'org',
      service: 'svc',
      managementOtherKeyId: 'other-kid',
    };
    expect(() => resolveSettings(given, RULE_IDS)).toThrow(/^managementOtherKeySecret is not set/);
    const config = resolveSettings(
      { ...given, managementOtherKeySecret: 'other-secret', managementOtherOrganizationId: 'other-org' },
      RULE_IDS,
    );
    expect(config.management).toMatchObject({ otherKeyId: 'other-kid', otherOrganizationId: 'other-org' });
  });
});
