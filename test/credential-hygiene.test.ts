import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startReference } from '../reference/server.ts';
import { builtMain, runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';

const servers: Server[] = [];
const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('credential hygiene', () => {
  it('sends the management key only to the management URL and the token only to the alerts URL', async () => {
    const reference = await startReference();
    try {
      const management: WireExchange[] = [];
      const alerts: WireExchange[] = [];
      const managementProxy = await recordingProxy(reference.managementUrl, management);
      const alertsProxy = await recordingProxy(reference.alertsUrl, alerts);
      servers.push(managementProxy.server, alertsProxy.server);
      const run = await runInProcess(['--runs', '2', '--seed', '11'], {
        MANAGEMENT_BASE_URL: managementProxy.url,
        MANAGEMENT_KEY_ID: reference.managementKeyId,
        MANAGEMENT_KEY_SECRET: reference.managementKeySecret,
        ORGANIZATION_ID: reference.organizationId,
        SERVICE_ID: reference.serviceId,
        BACKUP_ID: reference.backupId,
        ALERTS_BASE_URL: alertsProxy.url,
        ALERTS_TOKEN: reference.alertsToken,
      });
      expect(run.code).toBe(0);
      const authorizations = (log: WireExchange[]): string =>
        log.map((e) => String(e.requestHeaders.authorization ?? '')).join('\n');
      const basicSecret = Buffer.from(`${reference.managementKeyId}:${reference.managementKeySecret}`).toString(
        'base64',
      );
      expect(management.length).toBeGreaterThan(100);
      expect(alerts.length).toBeGreaterThan(10);
      expect(authorizations(management)).toContain(basicSecret);
      expect(authorizations(management)).not.toContain(reference.alertsToken);
      expect(authorizations(alerts)).toContain(reference.alertsToken);
      expect(authorizations(alerts)).not.toContain(basicSecret);
      expect(JSON.stringify(alerts)).not.toContain(reference.managementKeySecret);
    } finally {
      await reference.close();
    }
  });

  it('never follows a redirect, so credentials never reach another origin', async () => {
    let sinkRequests = 0;
    const sink = await listen(
      createServer((_req, res) => {
        sinkRequests += 1;
        res.end('{}');
      }),
    );
    // Each request sent to the same path under another origin: the base URL is not where the API answers (exit 2,
    // naming that origin); each sent to a login page: the run judges every 307.
    const redirector = (to: (url: string) => string) =>
      listen(
        createServer((req, res) => {
          res.writeHead(307, { location: to(req.url ?? '/') });
          res.end();
        }),
      );
    const settings = (baseUrl: string) => ({
      MANAGEMENT_BASE_URL: baseUrl,
      MANAGEMENT_KEY_ID: 'kid',
      MANAGEMENT_KEY_SECRET: 'redirect-secret',
      ORGANIZATION_ID: '4d3c1c6e-35c9-4f5f-9a43-1f3c7c1de001',
      SERVICE_ID: '4d3c1c6e-35c9-4f5f-9a43-1f3c7c1de002',
    });
    const lines: string[] = [];
    const moved = await builtMain(
      ['--report-dir', await mkdtemp(join(tmpdir(), 'redirect-')), '--runs', '1'],
      settings(await redirector((url) => `${sink}${url}`)),
      { out: (line) => lines.push(line), err: (line) => lines.push(line) },
    );
    expect(moved).toBe(2);
    expect(lines.join('\n')).toMatch(new RegExp(`set MANAGEMENT_BASE_URL to ${sink}\\. \\[NOT_THE_API\\]$`));
    const run = await runInProcess(
      ['--runs', '1', '--rules', 'request.valid-accepted'],
      settings(await redirector(() => `${sink}/login`)),
    );
    expect(sinkRequests).toBe(0);
    expect(run.code).toBe(1);
    expect(
      run.report.results.find((r) => r.rule === 'request.valid-accepted' && r.outcome === 'failed')?.message,
    ).toMatch(/got 307/);
    expect(`${lines.join('\n')}\n${run.output}`).not.toContain('redirect-secret');
  });
});
