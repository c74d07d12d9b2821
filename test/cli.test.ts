import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';
import { main } from '../cli/main.ts';
import { COMMAND_HELP, COMMANDS, HELP } from '../cli/help.ts';
import { RULES } from '../rules/index.ts';
import { operationsOf } from '../rule-model/rule.ts';
import { loadSpecs } from '../spec/spec.ts';
import { FAULTS } from '../reference/faults.ts';

/** Runs `conformance` in this process, collecting what it prints. */
async function inProcess(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {}, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const target = {
  MANAGEMENT_KEY_ID: 'kid',
  MANAGEMENT_KEY_SECRET: 'cli-test-secret-value',
  ORGANIZATION_ID: '00000000-0000-4000-8000-000000000000',
  SERVICE_ID: '00000000-0000-4000-8000-000000000001',
};

describe('conformance command', () => {
  it('prints its flags with --help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--management-url/);
    expect(result.stdout).toMatch(/Exit codes/);
  });

  it('exits 2 naming the variable when a needed secret is missing', async () => {
    const result = await runCli([], {
      MANAGEMENT_BASE_URL: 'http://127.0.0.1:9',
      ...target,
      MANAGEMENT_KEY_SECRET: '',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/MANAGEMENT_KEY_SECRET is set but empty/);
  });

  it('exits 2 with one line naming the URL when the target cannot be reached', async () => {
    const result = await runCli([], { MANAGEMENT_BASE_URL: 'http://127.0.0.1:9', ...target });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/Cannot reach MANAGEMENT_BASE_URL \(http:\/\/127\.0\.0\.1:9\): ECONNREFUSED/);
    expect(result.stdout + result.stderr).not.toContain(target.MANAGEMENT_KEY_SECRET);
  });

  it('exits 2 naming --report-dir when it cannot be written, before any request', async () => {
    const result = await runCli(['--report-dir', '/etc/passwd/out']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--report-dir \/etc\/passwd\/out cannot be written \(ENOTDIR\)/);
    expect(result.stdout).not.toMatch(/conformance: seed/);
  });

  it('exits 2 on an unknown flag', async () => {
    const result = await runCli(['--frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/frobnicate/);
  });

  it('says "did you mean" for a mistyped flag, command or rule id, with exit 2', async () => {
    expect(await inProcess(['--max-rsp', '5'])).toEqual({
      code: 2,
      out: '',
      err:
        'conformance: unknown flag --max-rsp for `conformance run` (did you mean --max-rps?). Run ' +
        '`conformance help run` for its flags. [CONFIG_INVALID]',
    });
    expect((await inProcess(['merge', 'a', '--report-dri', 'x'])).err).toMatch(
      /unknown flag --report-dri for `conformance merge` \(did you mean --report-dir\?\)/,
    );
    expect((await inProcess(['--rules', 'auth.requird'])).err).toMatch(
      /^conformance: --rules names unknown rule auth\.requird \(did you mean auth\.required\?\)/,
    );
    expect((await inProcess(['--skip-rules', 'request-id-v4'])).err).toMatch(
      /--skip-rules names unknown rule request-id-v4 \(did you mean envelope\.request-id-v4\?\)/,
    );
    expect(await inProcess(['rules', 'secret.absent'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown rule secret\.absent \(did you mean secrets\.absent\?\)/),
    });
    expect(await inProcess(['mrege'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown command "mrege" \(did you mean merge\?\)/),
    });
  });

  it('gives each command its own --help, and `help [command]`', async () => {
    for (const command of COMMANDS) {
      const viaFlag = await inProcess([command, '--help']);
      expect(viaFlag).toEqual({ code: 0, out: COMMAND_HELP[command], err: '' });
      expect(await inProcess(['help', command])).toEqual(viaFlag);
      expect(viaFlag.out).toMatch(new RegExp(`^Usage: conformance (\\[run\\]|${command})`));
    }
    expect(await inProcess(['help'])).toEqual({ code: 0, out: HELP, err: '' });
    expect((await inProcess(['help'])).out).toContain('--verbose');
    expect(await inProcess(['help', 'frobnicate'])).toMatchObject({ code: 2 });
  });

  it('`rules ID` explains one rule: sentence, basis, probes, operations, breaking faults; --json too', async () => {
    const rule = RULES.find((r) => r.id === 'envelope.request-id-v4')!;
    const text = await inProcess(['rules', rule.id]);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`Contract (stated: a document of the contract says it):\n  ${rule.sentence}`);
    expect(text.out).toContain(`Probed by: ${rule.probedBy}.`);
    expect(text.out).toContain('  createKey (POST /v1/organizations/{organizationId}/keys)');
    expect(text.out).toContain('  request-id-v1: requestId is a version-1 uuid');
    expect(text.out).toContain('docs/rules.md#enveloperequest-id-v4');
    const json = JSON.parse((await inProcess(['rules', rule.id, '--json'])).out);
    expect(json).toMatchObject({
      id: rule.id,
      basis: 'stated',
      sentence: rule.sentence,
      probedBy: rule.probedBy,
      doc: 'docs/rules.md#enveloperequest-id-v4',
    });
    expect(json.operations).toHaveLength(operationsOf(rule, (await loadSpecs()).operations).length);
    expect(json.faults.map((f: { name: string }) => f.name).sort()).toEqual(
      FAULTS.filter((f) => (f.breaks as readonly string[]).includes(rule.id))
        .map((f) => f.name)
        .sort(),
    );
    const all = JSON.parse((await inProcess(['rules', '--json'])).out);
    expect(all.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.id));
  });
});
