import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { isHarnessError } from '../core/errors.ts';
import { RULE_IDS } from '../rules/index.ts';
import { ROOT } from './support/cli.ts';

/** A reference to an environment variable as a settings file writes it. */
const ref = (name: string): string => `$\{${name}}`;

const credentials = { MANAGEMENT_KEY_ID: 'kid', MANAGEMENT_KEY_SECRET: 'ksecret', SERVICE_ID: 'svc' };

describe('a settings file', () => {
  let dir: string;
  /** Writes a file of the scratch folder and returns its path. */
  const file = async (name: string, text: string): Promise<string> => {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  };
  const failure = (argv: string[], env: Record<string, string> = {}, cwd = dir): string => {
    try {
      resolveConfig(argv, env, RULE_IDS, cwd);
    } catch (error) {
      if (isHarnessError(error)) return `${error.message} [${error.code}]`;
      throw error;
    }
    throw new Error('expected the settings to be refused');
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'config-file-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is below flags and variables and above the defaults, through the one resolver', async () => {
    const path = await file(
      'team.json',
      JSON.stringify({
        managementUrl: 'https://file.example.test',
        organization: 'file-org',
        maxRps: 3,
        rules: ['envelope.request-id-v4'],
        allow: ['read'],
        headers: { 'X-Tenant': 'file-tenant' },
      }),
    );
    const fromFile = resolveConfig(['--config', path], credentials, RULE_IDS, dir);
    expect(fromFile.management).toMatchObject({ baseUrl: 'https://file.example.test', organizationId: 'file-org' });
    expect([fromFile.maxRps, fromFile.rules, fromFile.allow]).toEqual([3, ['envelope.request-id-v4'], ['read']]);
    expect(fromFile.headers.management).toEqual({ 'x-tenant': 'file-tenant' });
    expect(fromFile.concurrency).toBe(DEFAULTS.concurrency);
    expect(fromFile.settingsFile).toEqual({ path, found: false });
    const env = { ...credentials, ORGANIZATION_ID: 'env-org', CONFORMANCE_HEADERS: 'X-Tenant: env-tenant' };
    const fromEnv = resolveConfig(['--config', path], env, RULE_IDS, dir);
    expect(fromEnv.management?.organizationId).toBe('env-org');
    expect(fromEnv.headers.alerts).toEqual({ 'x-tenant': 'env-tenant' });
    const argv = ['--config', path, '--organization', 'flag-org', '--max-rps', '7', '--header', 'X-Tenant: flag'];
    const fromFlags = resolveConfig(argv, env, RULE_IDS, dir);
    expect([fromFlags.management?.organizationId, fromFlags.maxRps]).toEqual(['flag-org', 7]);
    expect(fromFlags.headers.management).toEqual({ 'x-tenant': 'flag' });
  });

  it(
    'reads YAML, and a variable written $' + '{NAME} from the environment, so that a committed file holds no secret',
    async () => {
      const path = await file(
        'team.yaml',
        `maxRps: 4\nheaders:\n  X-Api-Key: "${ref('GATEWAY_KEY')}"\n  X-Team: a-${ref('TEAM')}\n`,
      );
      const config = resolveConfig(['--config', path], { GATEWAY_KEY: 'from-the-store', TEAM: 'b' }, RULE_IDS, dir);
      expect(config.maxRps).toBe(4);
      expect(config.headers.management).toEqual({ 'x-api-key': 'from-the-store', 'x-team': 'a-b' });
    },
  );

  it('names the key, the file and what to do for each mistake', async () => {
    const errors = [
      ['bad-key.json', '{ "maxRps": 2, "managmentUrl": "https://x.test" }'],
      ['bad-type.json', '{ "maxRps": "fast" }'],
      ['bad-list.json', '{ "rules": 5 }'],
      ['secret.json', `{ "managementKeySecret": "${ref('SECRET')}" }`],
      ['token.yaml', 'alertsToken: abc\n'],
      ['authorization.json', '{ "headers": { "Authorization": "Bearer abc" } }'],
      ['unset.json', `{ "headers": { "X-Api-Key": "${ref('NOT_SET_ANYWHERE')}" } }`],
      ['broken.json', '{ "maxRps": 5, '],
      ['list.json', '[1, 2]'],
    ];
    const printed: string[] = [];
    for (const [name, text] of errors) printed.push(failure(['--config', await file(name!, text!)]));
    printed.push(failure(['--config', 'missing.json']));
    expect(printed).toEqual([
      `${join(dir, 'bad-key.json')} has the key "managmentUrl", which is not a setting ` +
        '(did you mean managementUrl?); ' +
        "the keys are the library's settings (the flags of `conformance run` in camelCase). [CONFIG_INVALID]",
      `maxRps in ${join(dir, 'bad-type.json')} must be a whole number from 0 to 100000, not "fast". [CONFIG_INVALID]`,
      `rules in ${join(dir, 'bad-list.json')} must be a list of strings, not 5. [CONFIG_INVALID]`,
      `${join(dir, 'secret.json')} holds managementKeySecret, a credential: a committed file holds none. Set ` +
        "MANAGEMENT_KEY_SECRET in the environment (in CI, from the workflow's secrets) and remove the key. " +
        '[CONFIG_INVALID]',
      `${join(dir, 'token.yaml')} holds alertsToken, a credential: a committed file holds none. Set ALERTS_TOKEN in ` +
        "the environment (in CI, from the workflow's secrets) and remove the key. [CONFIG_INVALID]",
      `headers in ${join(dir, 'authorization.json')}: the header "Authorization" would replace the APIs' own ` +
        'credentials: set them in their variables. [CONFIG_INVALID]',
      `headers in ${join(dir, 'unset.json')} reads the environment variable NOT_SET_ANYWHERE, which is not set: set ` +
        "it (in CI, from the workflow's secrets or variables). [CONFIG_MISSING]",
      // Node's own words, which differ between its versions.
      expect.stringMatching(
        /^\/.*\/broken\.json is not valid JSON: Expected double-quoted property name .+\. \[CONFIG_INVALID\]$/,
      ),
      `${join(dir, 'list.json')} must hold an object of settings (such as { "maxRps": 5 }). [CONFIG_INVALID]`,
      '--config missing.json cannot be read (ENOENT): name a JSON or YAML file of settings. [CONFIG_INVALID]',
    ]);
    expect(printed.join('\n')).not.toContain('Bearer abc');
  });

  it('found in the working folder without --config, is said so on the first line of the run', async () => {
    const cwd = await mkdtemp(join(dir, 'found-'));
    await writeFile(join(cwd, 'conformance.config.json'), '{ "runs": 3 }');
    expect(resolveConfig([], {}, RULE_IDS, cwd).runs).toBe(3);
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'conformance.js'), '--dry-run'], {
      cwd,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      `conformance: settings read from ${join(cwd, 'conformance.config.json')} (found in the working folder; no ` +
        '--config given)',
    );
    expect(run.stdout).toContain('3 example(s) per property');
  });
});
