import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleCache } from '../cli/suites-run.ts';
import { runCli } from './support/cli.ts';

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
    const result = await runCli([], { MANAGEMENT_BASE_URL: 'http://127.0.0.1:9', ...target, MANAGEMENT_KEY_SECRET: '' });
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

  it('uses vitest\'s module cache where it can write it, and runs without it where it cannot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'module-cache-'));
    expect(await moduleCache(join(dir, 'modules'))).toEqual({ experimental: { fsModuleCache: true, fsModuleCachePath: join(dir, 'modules') } });
    await writeFile(join(dir, 'a-file'), '');
    expect(await moduleCache(join(dir, 'a-file', 'modules'))).toEqual({});
  });
});
