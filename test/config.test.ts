import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../core/config.ts';
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
    expect(config.management).toEqual({ baseUrl: 'https://api.example.test', keyId: 'kid', keySecret: 'ksecret', organizationId: 'flag-org', serviceId: 'svc' });
    expect(config.alerts).toBeUndefined();
    expect(config.unconfigured.alerts).toMatch(/ALERTS_BASE_URL/);
    expect(config.seed).toBe(7);
  });

  it.each([
    [{ ...full, MANAGEMENT_KEY_SECRET: '' }, [], 'CONFIG_MISSING', /MANAGEMENT_KEY_SECRET/],
    [{ ...full, SERVICE_ID: '' }, [], 'CONFIG_MISSING', /SERVICE_ID/],
    [{ ALERTS_BASE_URL: 'http://127.0.0.1:9' }, [], 'CONFIG_MISSING', /ALERTS_TOKEN/],
    [{ ...full, MANAGEMENT_BASE_URL: 'ftp://x' }, [], 'CONFIG_INVALID', /MANAGEMENT_BASE_URL.*http/],
    [{ ...full, MANAGEMENT_BASE_URL: 'not a url' }, [], 'CONFIG_INVALID', /not a URL/],
    [full, ['--runs', 'many'], 'CONFIG_INVALID', /--runs/],
    [full, ['--rules', 'envelope.shape,no.such-rule'], 'CONFIG_INVALID', /no\.such-rule/],
    [full, ['--allow', 'read,delete'], 'CONFIG_INVALID', /--allow/],
    [full, ['--shard', '3/2'], 'CONFIG_INVALID', /--shard/],
    [full, ['--bogus'], 'CONFIG_INVALID', /bogus/],
    [full, ['--update-baseline'], 'CONFIG_INVALID', /--baseline/],
    [full, ['--reference-fault', 'x'], 'CONFIG_INVALID', /reference/],
  ] as const)('rejects bad settings with a message naming the setting (%#)', (env, argv, code, pattern) => {
    const error = failure([...argv], env);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(pattern);
  });

  it('narrows rules with --rules and --skip-rules', () => {
    const config = resolveConfig(['--rules', 'envelope.shape,auth.required', '--skip-rules', 'auth.required'], {}, RULE_IDS);
    expect(config.rules).toEqual(['envelope.shape']);
  });
});
