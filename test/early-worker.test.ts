import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// The build's modules, as a run of the build uses them: a run of the sources has no early worker.
const built = async <T>(path: string): Promise<T> =>
  (await import(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)))) as T;
const { EarlyWorker, asksForRun } = await built<typeof import('../cli/early-worker.ts')>('cli/early-worker.js');
const { vitestThreadStart, COPIED_FROM_VITEST } =
  await built<typeof import('../cli/vitest-thread.ts')>('cli/vitest-thread.js');
const { version: VITEST_VERSION } = createRequire(import.meta.url)('vitest/package.json') as { version: string };
const { prepareRun } = await built<typeof import('../engine/prepare-run.ts')>('engine/prepare-run.js');
const { SUITES } = await built<typeof import('../suites/index.ts')>('suites/index.js');
const { listenToRun, runLink } = await built<typeof import('../core/run-channel.ts')>('core/run-channel.js');
const { resolveConfig } = await built<typeof import('../core/config.ts')>('core/config.js');
const { startReference } = await built<typeof import('../reference/server.ts')>('reference/server.js');
const { loadShippedSpecs } = await built<typeof import('../core/prepared-specs.ts')>('core/prepared-specs.js');
const { RULE_IDS } = await built<typeof import('../rules/index.ts')>('rules/index.js');
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const REFUSED = /vitest wanted its worker thread started otherwise/;
/** This process's environment without target settings: runs go to the embedded reference target. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID)/.test(name),
    ),
  );

describe("vitest's worker thread, started with the command", () => {
  const scratch = mkdtemp(join(tmpdir(), 'early-worker-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it.each([
    ['unset', undefined],
    ['production', 'production'],
    ['development', 'development'],
  ])(
    'is adopted by vitest in a run of the build, NODE_ENV %s: vitest asks for a thread started exactly as ' +
      'the command started it',
    async (_, nodeEnv) => {
      const reportDir = join(await scratch, `report-${nodeEnv}`);
      // Each thread writes a CPU profile as it ends: two when vitest ran the suites in the thread the command started.
      const profiles = join(await scratch, `profiles-${nodeEnv}`);
      const { NODE_ENV: _vitests, ...env } = cleanEnv();
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--cpu-prof', `--cpu-prof-dir=${profiles}`, BIN, '--runs', '1', '--report-dir', reportDir],
        {
          env: nodeEnv ? { ...env, NODE_ENV: nodeEnv } : env,
        },
      );
      expect(stdout).toMatch(/PASSED: 0 failed, \d+ passed/);
      const changed =
        `vitest ${VITEST_VERSION} starts its pool's threads otherwise than cli/vitest-thread.ts copies from ` +
        `vitest ${COPIED_FROM_VITEST}, so every run of the build starts a second thread (about 0.1 s): ` +
        `update vitestThreadStart to what it says, or drop the early worker. ${stderr}`;
      expect(stderr, changed).not.toMatch(REFUSED);
      expect(await readdir(profiles)).toHaveLength(2);
    },
  );

  it('leaves a bad setting that only planning finds to the command, which exits 2 naming it as given', async () => {
    const reportDir = join(await scratch, 'shard-report');
    const run = await promisify(execFile)(process.execPath, [BIN, '--shard', '9/9', '--report-dir', reportDir], {
      env: cleanEnv(),
    }).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr).toContain('--shard 9/9: a shard runs whole suites, and the run has 6');
    expect(run.stderr).not.toMatch(REFUSED);
  });

  it(
    "prepares the run, from the settings the command gives it as it starts, as the command's own thread would, " +
      'and tells the command',
    async () => {
      const specs = await loadShippedSpecs();
      const reference = await startReference();
      /** What the early worker prepares from a run's settings: the run, or the error that stops it. */
      const preparedThere = async (config: ReturnType<typeof resolveConfig>): Promise<unknown> => {
        const link = runLink({ config });
        const listener = listenToRun(link);
        const early = EarlyWorker.start(link, () => undefined);
        expect(early).toBeDefined();
        try {
          return await listener.prepared.catch((error: unknown) => error);
        } finally {
          listener.close();
          await early?.dispose();
        }
      };
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
        for (const argv of [
          [],
          ['--runs', '40', '--max-requests', '150'],
          ['--shard', '2/3', '--allow', 'read'],
          ['--rules', 'alerts.list-omits'],
        ]) {
          const config = resolveConfig(argv, target, RULE_IDS);
          expect(await preparedThere(config), argv.join(' ')).toEqual(await prepareRun({ config }, specs, SUITES));
        }
        // What stops the run reaches the command as the HarnessError it is.
        const unreachable = await preparedThere(
          resolveConfig([], { ...target, ALERTS_BASE_URL: 'http://127.0.0.1:9' }, RULE_IDS),
        );
        expect(unreachable).toMatchObject({
          name: 'HarnessError',
          code: 'TARGET_UNREACHABLE',
          message: expect.stringContaining('ALERTS_BASE_URL'),
        });
        // The embedded target has no preflight.
        expect(await preparedThere(resolveConfig([], {}, RULE_IDS))).not.toHaveProperty('preflight');
      } finally {
        await reference.close();
      }
    },
  );

  it('is handed over once, and only to a pool that asks for the same environment and Node flags', async () => {
    const said: string[] = [];
    const early = EarlyWorker.start(runLink({ config: resolveConfig(['--dry-run'], {}, RULE_IDS) }), (why) =>
      said.push(why),
    );
    expect(early).toBeDefined();
    const thread = early?.take(vitestThreadStart());
    expect(thread).toBeDefined();
    expect(early?.take(vitestThreadStart())).toBeUndefined();
    await thread?.terminate();
    expect(said).toEqual([]);
  });

  it('is spawned before the settings are settled, handed them once, and adopted only once it has them', async () => {
    const specs = await loadShippedSpecs();
    const config = resolveConfig(['--rules', 'alerts.list-omits'], {}, RULE_IDS);
    const early = EarlyWorker.spawn();
    expect(early).toBeDefined();
    // The harness loads meanwhile; the settings come later, as the command settles them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const link = runLink({ config });
    const listener = listenToRun(link);
    try {
      expect(early?.push(link, () => undefined)).toBe(true);
      expect(early?.push(link, () => undefined)).toBe(false);
      expect(await listener.prepared).toEqual(await prepareRun({ config }, specs, SUITES));
      const thread = early?.take(vitestThreadStart());
      expect(thread).toBeDefined();
      await thread?.terminate();
    } finally {
      listener.close();
    }
    // One never handed settings is never adopted (it would wait for them), nor one ended.
    const waiting = EarlyWorker.spawn();
    expect(waiting?.take(vitestThreadStart())).toBeUndefined();
    const ended = EarlyWorker.spawn();
    await ended?.dispose();
    expect(ended?.push(link, () => undefined)).toBe(false);
  });

  it('is spawned first for the command lines that run, as the command dispatches them', () => {
    for (const argv of [[], ['--seed', '1'], ['run'], ['run', '--runs', '2'], ['--har', 'run.har']])
      expect(asksForRun(argv), argv.join(' ')).toBe(true);
    for (const argv of [
      ['--dry-run'],
      ['run', '--dry-run'],
      ['--help'],
      ['run', '-h'],
      ['--version'],
      ['help'],
      ['rules'],
      ['reference'],
      ['merge', 'blob'],
      ['diff', 'a.json', 'b.json'],
      ['verify', 'bundle'],
      ['docs'],
      ['typo'],
    ])
      expect(asksForRun(argv), argv.join(' ')).toBe(false);
  });

  it('is refused when vitest asks otherwise, naming what differs but never an environment value', async () => {
    const said: string[] = [];
    const early = EarlyWorker.start(runLink({ config: resolveConfig([], {}, RULE_IDS) }), (why) => said.push(why));
    const wanted = vitestThreadStart();
    expect(
      early?.take({
        env: { ...wanted.env, SOME_TOKEN: 'value-not-to-print' },
        execArgv: [...wanted.execArgv, '--no-warnings'],
      }),
    ).toBeUndefined();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(REFUSED);
    expect(said[0]).toContain('SOME_TOKEN');
    expect(said[0]).toContain('--no-warnings');
    expect(said[0]).not.toContain('value-not-to-print');
    // Taken once: refused, it is ended, and a pool that asks again starts its own.
    expect(early?.take(wanted)).toBeUndefined();
    await early?.dispose();
  });
});
