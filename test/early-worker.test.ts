import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The build's modules, as a run of the build uses them: a run of the sources has no early worker.
const built = async <T>(path: string): Promise<T> => (await import(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)))) as T;
const { EarlyWorker, vitestThreadStart } = await built<typeof import('../cli/early-worker.ts')>('cli/early-worker.js');
const { planFor } = await built<typeof import('../cli/prepare-run.ts')>('cli/prepare-run.js');
const { preflight } = await built<typeof import('../cli/preflight.ts')>('cli/preflight.js');
const { resolveConfig, withRuns } = await built<typeof import('../core/config.ts')>('core/config.js');
const { startReference } = await built<typeof import('../reference/server.ts')>('reference/server.js');
const { loadShippedSpecs } = await built<typeof import('../core/prepared-specs.ts')>('core/prepared-specs.js');
const { RULE_IDS } = await built<typeof import('../rules/index.ts')>('rules/index.js');
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const REFUSED = /vitest wanted its worker thread started otherwise/;
/** This process's environment without target settings: runs go to the embedded reference target. */
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID)/.test(name)));

describe("vitest's worker thread, started with the command", () => {
  const scratch = mkdtemp(join(tmpdir(), 'early-worker-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it.each([
    ['unset', undefined],
    ['production', 'production'],
    ['development', 'development'],
  ])('is adopted by vitest in a run of the build, NODE_ENV %s: vitest asks for a thread started exactly as the command started it', async (_, nodeEnv) => {
    const reportDir = join(await scratch, `report-${nodeEnv}`);
    // Each thread writes a CPU profile as it ends: two when vitest ran the suites in the thread the command started.
    const profiles = join(await scratch, `profiles-${nodeEnv}`);
    const { NODE_ENV: _vitests, ...env } = cleanEnv();
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, BIN, '--runs', '1', '--report-dir', reportDir], {
      env: nodeEnv ? { ...env, NODE_ENV: nodeEnv } : env,
    });
    expect(stdout).toMatch(/PASSED: 0 failed, \d+ passed/);
    expect(stderr, stderr).not.toMatch(REFUSED);
    expect(await readdir(profiles)).toHaveLength(2);
  });

  it('leaves a bad setting that only planning finds to the command, which exits 2 naming it as given', async () => {
    const reportDir = join(await scratch, 'shard-report');
    const run = await promisify(execFile)(process.execPath, [BIN, '--shard', '9/9', '--report-dir', reportDir], { env: cleanEnv() }).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr).toContain('--shard 9/9: a shard runs whole suites, and the run has 6');
    expect(run.stderr).not.toMatch(REFUSED);
  });

  it("plans the run and runs the preflight as the command's own thread would, and says when it no longer can", async () => {
    const early = EarlyWorker.start(() => undefined);
    const specs = await loadShippedSpecs();
    const reference = await startReference();
    try {
      const target = {
        MANAGEMENT_BASE_URL: reference.managementUrl,
        MANAGEMENT_KEY_ID: reference.managementKeyId,
        MANAGEMENT_KEY_SECRET: reference.managementKeySecret,
        ORGANIZATION_ID: reference.organizationId,
        SERVICE_ID: reference.serviceId,
        BACKUP_ID: reference.backupId,
        ALERTS_BASE_URL: reference.alertsUrl,
        ALERTS_TOKEN: reference.alertsToken,
      };
      for (const argv of [[], ['--runs', '40', '--max-requests', '150'], ['--shard', '2/3', '--allow', 'read'], ['--rules', 'alerts.list-omits']]) {
        const config = resolveConfig(argv, target, RULE_IDS);
        const there = await early?.prepare(config);
        expect(there?.plan, argv.join(' ')).toEqual(await planFor(config, specs));
        expect(there?.preflight?.(), argv.join(' ')).toEqual(await preflight(withRuns(config, there?.plan.runs ?? 0), specs));
      }
      // What stops the run reaches the command as the HarnessError it is.
      const unreachable = await early?.prepare(resolveConfig([], { ...target, ALERTS_BASE_URL: 'http://127.0.0.1:9' }, RULE_IDS));
      expect(() => unreachable?.preflight?.()).toThrow(expect.objectContaining({ name: 'HarnessError', code: 'TARGET_UNREACHABLE', message: expect.stringContaining('ALERTS_BASE_URL') }));
      // The embedded target has no preflight.
      expect((await early?.prepare(resolveConfig([], {}, RULE_IDS)))?.preflight).toBeUndefined();
    } finally {
      await reference.close();
    }
    await early?.dispose();
    await expect(early?.prepare(resolveConfig([], {}, RULE_IDS))).rejects.toThrow(/ended/);
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

  it('is refused when vitest asks otherwise, naming what differs but never an environment value, and ended only once it has answered', async () => {
    const said: string[] = [];
    const early = EarlyWorker.start((why) => said.push(why));
    // Asked before vitest's pool refuses it: what it began (a preflight, for a configured target) is answered, not cut off.
    const config = resolveConfig([], {}, RULE_IDS);
    const asked = early?.prepare(config);
    const wanted = vitestThreadStart();
    expect(early?.take({ env: { ...wanted.env, SOME_TOKEN: 'value-not-to-print' }, execArgv: [...wanted.execArgv, '--no-warnings'] })).toBeUndefined();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(REFUSED);
    expect(said[0]).toContain('SOME_TOKEN');
    expect(said[0]).toContain('--no-warnings');
    expect(said[0]).not.toContain('value-not-to-print');
    expect((await asked)?.plan).toEqual(await planFor(config, await loadShippedSpecs()));
    await early?.dispose();
  });
});
