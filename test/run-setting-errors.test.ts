import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { countCredentialUse, createCredentialTally, type CredentialTally } from '../evidence/credential-tally.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { SuiteReport } from '../run/run-report-types.ts';
import { settingErrors } from '../reports/setting-errors.ts';
import { runInProcess } from './support/in-process.ts';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

function exchange(
  api: 'management' | 'alerts',
  operationId: string,
  auth: 'default' | 'none' | 'custom',
  status?: number,
): Exchange {
  return {
    api,
    operation: operationId,
    operationId,
    probe: { intent: 'accept', label: 'test' },
    request: { method: 'GET', url: 'http://127.0.0.1:1/', headers: {}, auth, params: {}, query: {} },
    ...(status === undefined
      ? { failure: { code: 'timeout', message: 'no answer', durationMs: 1 } }
      : { response: { status, headers: {}, text: '', durationMs: 1 } }),
  };
}

function suites(...tallies: CredentialTally[]): SuiteReport[] {
  return tallies.map((credentials, i) => ({
    suite: `s${i}`,
    coverage: {},
    created: [],
    requests: 0,
    rateLimited: 0,
    skippedGroups: [],
    credentials,
  }));
}

function tallyOf(...exchanges: Exchange[]): CredentialTally {
  const tally = createCredentialTally();
  for (const e of exchanges) countCredentialUse(tally, e);
  return tally;
}

describe('settings mistakes only a run shows', () => {
  it(
    "an API that refused every request sent with the run's credentials, across suites, is a settings error " +
      'naming them',
    () => {
      const errors = settingErrors(
        suites(
          tallyOf(
            exchange('management', 'getUsageCost', 'default', 401),
            exchange('management', 'getUsageCost', 'none', 401),
          ),
          tallyOf(
            exchange('management', 'createKey', 'default', 403),
            exchange('alerts', 'listAlerts', 'default', 200),
          ),
        ),
      );
      expect(errors).toEqual([
        "the management API refused all 2 requests sent with the run's credentials (401/403): a settings " +
          'mistake, not a contract failure. Check MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET.',
      ]);
    },
  );

  it("one request with the run's credentials that was not refused, or none sent, is no settings error", () => {
    expect(
      settingErrors(
        suites(
          tallyOf(exchange('alerts', 'listAlerts', 'default', 401), exchange('alerts', 'updateAlert', 'default', 500)),
        ),
      ),
    ).toEqual([]);
    expect(
      settingErrors(
        suites(tallyOf(exchange('alerts', 'listAlerts', 'default', 401), exchange('alerts', 'updateAlert', 'default'))),
      ),
    ).toEqual([]);
    expect(
      settingErrors(
        suites(tallyOf(exchange('alerts', 'listAlerts', 'custom', 401), exchange('alerts', 'listAlerts', 'none', 401))),
      ),
    ).toEqual([]);
    expect(
      settingErrors([{ suite: 'old', coverage: {}, created: [], requests: 0, rateLimited: 0, skippedGroups: [] }]),
    ).toEqual([]);
  });

  it('pipe creates that all got 404 name SERVICE_ID', () => {
    const creates = tallyOf(
      exchange('management', 'createPipe', 'default', 404),
      exchange('management', 'createPipe', 'default', 404),
      exchange('management', 'getUsageCost', 'default', 200),
    );
    expect(settingErrors(suites(creates))).toEqual([
      'all 2 pipe creates got 404: SERVICE_ID (--service) is not a service of the organization that the ' +
        'management API knows; check SERVICE_ID (--service).',
    ]);
    expect(
      settingErrors(
        suites(
          tallyOf(
            exchange('management', 'createPipe', 'default', 404),
            exchange('management', 'createPipe', 'default', 200),
          ),
        ),
      ),
    ).toEqual([]);
  });
});

// An unknown SERVICE_ID without BACKUP_ID: test/preflight.test.ts (the preflight's pipe create confirms it).
describe('a run whose settings the preflight could not check ends in error, exit 2', () => {
  it('credentials refused on every request after a preflight that got a 503', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      req.resume();
      res.writeHead(requests === 1 ? 503 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: requests === 1 ? 'warming up' : 'unauthorized' }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const run = await runInProcess(['--runs', '1', '--allow', 'read', '--seed', '5'], {
      MANAGEMENT_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      MANAGEMENT_KEY_ID: 'kid',
      MANAGEMENT_KEY_SECRET: 'refused-secret',
      ORGANIZATION_ID: randomUUID(),
      SERVICE_ID: randomUUID(),
    });
    expect(run.output).toMatch(/preflight: management unchecked: GET .* answered 503, left to the run/);
    expect(run.report.outcome).toBe('error');
    expect(run.report.errors).toEqual([
      expect.stringMatching(
        new RegExp(
          String.raw`^the management API refused all \d+ requests sent with the run's credentials \(401/403\)` +
            String.raw`.*Check MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET\.$`,
        ),
      ),
    ]);
    expect(run.code).toBe(2);
    expect(run.output).not.toContain('refused-secret');
  });
});
