import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deferredRun } from '../cli/deferred-run.ts';
import { runConformance } from '../cli/run-conformance.ts';
import { RULE_IDS } from '../rules/index.ts';
import { resolveConfig, resolveSettings } from '../settings/config.ts';
import { runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';
import { targetEnv } from './support/target-env.ts';
import { startedInEachTest } from './support/started-in-each-test.ts';

const TARGET = {
  MANAGEMENT_BASE_URL: 'https://api.example.test',
  MANAGEMENT_KEY_ID: 'k',
  MANAGEMENT_KEY_SECRET: 's',
  ORGANIZATION_ID: 'o',
  SERVICE_ID: 's',
};

/** A request that changes the service's state (`stop` or `start`). */
const isStateChange = (exchange: WireExchange): boolean =>
  exchange.method === 'PATCH' && exchange.path.endsWith('/state');

describe('what a run may do to a target, by default', () => {
  const started = startedInEachTest();

  it(
    'against a configured target: read and write, disruptive only when named; the command, the library and the ' +
      'vitest entry alike',
    async () => {
      const settings = {
        managementUrl: TARGET.MANAGEMENT_BASE_URL,
        managementKeyId: 'k',
        managementKeySecret: 's',
        organization: 'o',
        service: 's',
      };
      expect(resolveConfig([], TARGET, RULE_IDS).allow).toEqual(['read', 'write']);
      expect(resolveSettings(settings, RULE_IDS).allow).toEqual(['read', 'write']);
      expect((await deferredRun(settings)).config.allow).toEqual(['read', 'write']);
      expect(resolveConfig(['--allow', 'read,write,disruptive'], TARGET, RULE_IDS).allow).toEqual([
        'read',
        'write',
        'disruptive',
      ]);
      // The embedded reference target is the harness's own: every class runs against it.
      expect(resolveConfig([], {}, RULE_IDS).allow).toEqual(['read', 'write', 'disruptive']);
      expect((await deferredRun({})).config.allow).toEqual(['read', 'write', 'disruptive']);
    },
  );

  it('a run against a configured target never stops the service unless asked, and its first line says so', async () => {
    const reference = await started.reference();
    const log: WireExchange[] = [];
    const management = started.server(await recordingProxy(reference.managementUrl, log));
    const env = targetEnv(reference, { management: management.url });

    const run = await runInProcess(['--runs', '1', '--seed', '4'], env);
    expect(run.code).toBe(0);
    expect(log.filter(isStateChange)).toEqual([]);
    expect(run.stdout.split('\n')[0]).toBe(
      `Testing management API at ${management.url}, alerts API at ${reference.alertsUrl}; probe classes read, ` +
        "write; left out by default against a configured target: disruptive (the service's stop and start), run " +
        'only when --allow names it',
    );
    const service = run.report.results.filter((r) => r.operationId === 'changeServiceState');
    expect(service.length).toBeGreaterThan(0);
    expect(service.every((r) => r.outcome === 'skipped' && r.skipKind === 'by-choice')).toBe(true);
    expect(service[0]?.message).toMatch(
      /probes of class disruptive are left out by default against a configured target \(name it in --allow to run/,
    );

    const named = await runInProcess(['--runs', '1', '--seed', '4', '--allow', 'read,write,disruptive'], env);
    expect(named.code).toBe(0);
    expect(log.filter(isStateChange).map((e) => e.requestBody)).toContain('{"command":"stop"}');
    expect(named.stdout.split('\n')[0]).toMatch(/; probe classes read, write, disruptive \(every class\)$/);
  }, 120_000);

  it('from code, the same default, and the first line names the setting as the library takes it', async () => {
    const reference = await started.reference();
    const log: WireExchange[] = [];
    const management = started.server(await recordingProxy(reference.managementUrl, log));
    const lines: string[] = [];
    const run = await runConformance(
      {
        managementUrl: management.url,
        managementKeyId: reference.managementKeyId,
        managementKeySecret: reference.managementKeySecret,
        organization: reference.organizationId,
        service: reference.serviceId,
        backup: reference.backupId,
        rules: ['service.command', 'envelope.shape'],
        runs: 1,
        reportDir: join(await mkdtemp(join(tmpdir(), 'safe-default-')), 'out'),
      },
      { out: (line) => lines.push(line) },
    );
    expect(run.exitCode).toBe(0);
    expect(log.filter(isStateChange)).toEqual([]);
    expect(lines[0]).toMatch(/disruptive \(the service's stop and start\), run only when allow names it$/);
  }, 120_000);
});
