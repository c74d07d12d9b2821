import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The build's modules, as a run of the build uses them: a run of the sources has no early worker.
const { EarlyWorker, vitestThreadStart } = (await import(fileURLToPath(new URL('../dist/cli/early-worker.js', import.meta.url)))) as typeof import('../cli/early-worker.ts');
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const REFUSED = /vitest wanted its worker thread started otherwise/;

describe("vitest's worker thread, started with the command", () => {
  const scratch = mkdtemp(join(tmpdir(), 'early-worker-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it('is adopted by vitest in a run of the build: vitest asks for a thread started exactly as the command started it', async () => {
    const reportDir = join(await scratch, 'report');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID)/.test(name)));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, '--runs', '1', '--report-dir', reportDir], { env });
    expect(stdout).toMatch(/PASSED: 0 failed, \d+ passed/);
    expect(stderr).not.toMatch(REFUSED);
  });

  it('is handed over once, and only to a pool that asks for the same environment and Node flags', async () => {
    const said: string[] = [];
    const early = EarlyWorker.start((why) => said.push(why));
    expect(early).toBeDefined();
    const thread = early?.take(vitestThreadStart());
    expect(thread).toBeDefined();
    expect(early?.take(vitestThreadStart())).toBeUndefined();
    await thread?.terminate();
    expect(said).toEqual([]);
  });

  it('is refused and ended when vitest asks otherwise, naming what differs but never an environment value', async () => {
    const said: string[] = [];
    const early = EarlyWorker.start((why) => said.push(why));
    const wanted = vitestThreadStart();
    expect(early?.take({ env: { ...wanted.env, SOME_TOKEN: 'value-not-to-print' }, execArgv: [...wanted.execArgv, '--no-warnings'] })).toBeUndefined();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(REFUSED);
    expect(said[0]).toContain('SOME_TOKEN');
    expect(said[0]).toContain('--no-warnings');
    expect(said[0]).not.toContain('value-not-to-print');
    await early?.dispose();
  });
});
