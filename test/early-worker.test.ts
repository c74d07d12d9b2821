import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { targetEnv } from './support/target-env.ts';

// The build's modules, as a run of the build uses them: a run of the sources has no early worker.
const built = async <T>(path: string): Promise<T> =>
  (await import(fileURLToPath(new URL(`../dist/${path}`, import.meta.url)))) as T;
const { EarlyWorker, asksForRun } = await built<typeof import('../cli/early-worker.ts')>('cli/early-worker.js');
const { prepareRun } = await built<typeof import('../engine/prepare-run.ts')>('engine/prepare-run.js');
const { SUITES } = await built<typeof import('../suites/index.ts')>('suites/index.js');
const { listenToRun, runLink } = await built<typeof import('../run/run-channel.ts')>('run/run-channel.js');
const { resolveConfig } = await built<typeof import('../settings/config.ts')>('settings/config.js');
const { startReference } = await built<typeof import('../reference/server.ts')>('reference/server.js');
const { loadShippedSpecs } = await built<typeof import('../spec/prepared-specs.ts')>('spec/prepared-specs.js');
const { RULE_IDS } = await built<typeof import('../rules/index.ts')>('rules/index.js');
const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const { verdictCount } = await built<typeof import('../engine/suite-verdicts.ts')>('engine/suite-verdicts.js');
/** This process's environment without target settings: runs go to the embedded reference target. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID)/.test(name),
    ),
  );

describe("the command's run thread, started with the command", () => {
  const scratch = mkdtemp(join(tmpdir(), 'early-worker-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it('leaves a bad setting that only planning finds to the command, which exits 2 naming it as given', async () => {
    const reportDir = join(await scratch, 'shard-report');
    const run = await promisify(execFile)(process.execPath, [BIN, '--shard', '9/9', '--report-dir', reportDir], {
      env: cleanEnv(),
    }).catch((error: { code: number; stderr: string }) => error);
    expect(run).toMatchObject({ code: 2 });
    expect(run.stderr).toContain('--shard 9/9: a shard runs whole suites, and the run has 6');
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
        const early = EarlyWorker.start(link);
        expect(early).toBeDefined();
        try {
          return await listener.prepared.then(
            (event) => event.run,
            (error: unknown) => error,
          );
        } finally {
          listener.close();
          await early?.dispose();
        }
      };
      try {
        const target = targetEnv(reference);
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

  it('is spawned before the settings are settled, handed them once, and judges every suite', async () => {
    const specs = await loadShippedSpecs();
    const reference = await startReference();
    const config = resolveConfig(
      ['--rules', 'alerts.list-omits,envelope.shape', '--runs', '2'],
      targetEnv(reference),
      RULE_IDS,
    );
    const early = EarlyWorker.spawn();
    expect(early).toBeDefined();
    // The harness loads meanwhile; the settings come later, as the command settles them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const link = runLink({ config });
    const listener = listenToRun(link);
    try {
      expect(early?.push(link)).toBe(true);
      expect(early?.push(link)).toBe(false);
      const prepared = await listener.prepared;
      expect(prepared.run).toEqual(await prepareRun({ config: link.settings.config }, specs, SUITES));
      const suites = await Promise.race([listener.finished, early!.failed]);
      expect(suites.map((suite) => suite.report.suite)).toEqual(SUITES.map((suite) => suite().name));
      const results = suites.flatMap((suite) => suite.results);
      expect(results).toHaveLength(prepared.verdicts);
      expect(prepared.verdicts).toBe(
        verdictCount(
          specs,
          SUITES.map((suite) => suite()),
        ),
      );
      expect(results.filter((result) => result.outcome === 'passed').map((result) => result.rule)).toContain(
        'envelope.shape',
      );
    } finally {
      listener.close();
      await early?.dispose();
      await reference.close();
    }
    // One ended is handed nothing.
    const ended = EarlyWorker.spawn();
    await ended?.dispose();
    expect(ended?.push(link)).toBe(false);
  });

  it('fails, for the command to report, when its thread fails before the run is judged', async () => {
    const early = EarlyWorker.spawn();
    // A link without its shared memory: the thread cannot open the run's channel, and throws.
    const broken = { ...runLink({ config: resolveConfig([], {}, RULE_IDS) }), memory: undefined };
    try {
      expect(early?.push(broken as unknown as Parameters<NonNullable<typeof early>['push']>[0])).toBe(true);
      await expect(early?.failed).rejects.toThrow();
    } finally {
      await early?.dispose();
    }
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
});
