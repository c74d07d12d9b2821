import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../rules/index.ts';
import { resolveConfig, resolveSettings } from '../settings/config.ts';
import { runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';
import { targetEnv } from './support/target-env.ts';
import { judgedRules } from './support/unprobed.ts';
import { startedInEachTest } from './support/started-in-each-test.ts';

const BOTH = {
  MANAGEMENT_BASE_URL: 'https://api.example.test',
  MANAGEMENT_KEY_ID: 'k',
  MANAGEMENT_KEY_SECRET: 's',
  ORGANIZATION_ID: 'o',
  SERVICE_ID: 's',
  ALERTS_BASE_URL: 'https://alerts.example.test',
  ALERTS_TOKEN: 't',
};

/** The error a call throws, as `message [code]`. */
function thrown(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    return `${message} [${code}]`;
  }
  throw new Error('it did not throw');
}

describe('one API from the command line, the settings file and the library', () => {
  const started = startedInEachTest();

  it(
    '--api management runs that API even when the other is set (or set empty), and says why the other is ' + 'out',
    async () => {
      const config = resolveConfig(['--api', 'management', '--alerts-url', ''], BOTH, RULE_IDS);
      expect(config.apis).toEqual(['management']);
      expect(config.management?.baseUrl).toBe('https://api.example.test');
      expect(config.alerts).toBeUndefined();
      expect(config.unconfigured).toEqual({ alerts: 'left out by --api management: nothing is sent to it' });
      expect(
        resolveSettings({ apis: ['alerts'], alertsUrl: 'https://a.test', alertsToken: 't' }, RULE_IDS).apis,
      ).toEqual(['alerts']);
      const dir = await mkdtemp(join(tmpdir(), 'one-api-'));
      await writeFile(join(dir, 'conformance.config.yaml'), 'apis: alerts\n');
      const fromFile = resolveConfig([], BOTH, RULE_IDS, dir);
      expect([fromFile.apis, fromFile.management, fromFile.unconfigured.management]).toEqual([
        ['alerts'],
        undefined,
        'left out by apis in conformance.config.yaml alerts: nothing is sent to it',
      ]);
      expect(resolveConfig([], BOTH, RULE_IDS).apis).toEqual(['management', 'alerts']);
      expect(thrown(() => resolveConfig(['--api', 'managment'], BOTH, RULE_IDS))).toBe(
        '--api takes management or alerts (or both, comma-separated); "managment" is not one (did you mean ' +
          'management?). [CONFIG_INVALID]',
      );
      expect(
        thrown(() => resolveConfig(['--api', 'alerts'], { ...BOTH, ALERTS_BASE_URL: undefined } as never, RULE_IDS)),
      ).toMatch(/^--api alerts runs the alerts API, but ALERTS_BASE_URL \(--alerts-url\) is not set: /);
    },
  );

  it('a run with --api management sends the alerts API nothing, not even the preflight, and skips it by ' +
    'choice', async () => {
    const reference = await started.reference();
    const log: WireExchange[] = [];
    const alerts = started.server(await recordingProxy(reference.alertsUrl, log));
    const run = await runInProcess(
      ['--api', 'management', '--runs', '1', '--seed', '2'],
      targetEnv(reference, { alerts: alerts.url }),
    );
    expect(run.code, run.output).toBe(0);
    expect(log).toEqual([]);
    expect(run.stdout.split('\n')[0]).toMatch(
      /^Testing management API at \S+ \(not under test: alerts API, left out by --api management: nothing is sent to/,
    );
    const onAlerts = judgedRules(run.report.results).filter(
      (r) => r.operation.startsWith('/api/v2') || / \/api\/v2\//.test(r.operation),
    );
    expect(onAlerts.length).toBeGreaterThan(0);
    expect(onAlerts.filter((r) => r.outcome !== 'skipped' || r.skipKind !== 'by-choice')).toEqual([]);
    expect(run.report.target.alerts).toBeUndefined();
  }, 120_000);

  it('against the embedded reference target too: --api alerts leaves the management API out', async () => {
    const run = await runInProcess(['--api', 'alerts', '--runs', '1', '--seed', '2']);
    expect(run.code, run.output).toBe(0);
    const management = judgedRules(run.report.results).filter((r) => / \/v1\//.test(r.operation));
    expect(management.length).toBeGreaterThan(0);
    expect(management.filter((r) => r.outcome !== 'skipped' || r.skipKind !== 'by-choice')).toEqual([]);
    expect(run.report.results.some((r) => / \/api\/v2\//.test(r.operation) && r.outcome === 'passed')).toBe(true);
    expect(run.report.stats.operations['POST /v1/organizations/{organizationId}/keys']).toBeUndefined();
  }, 120_000);
});
