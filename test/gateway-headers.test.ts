import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { type ReferenceTarget, startReference } from '../reference/server.ts';
import { runCli } from './support/cli.ts';
import { type GatewayLog, startGateway } from './support/gateway.ts';
import { targetEnv } from './support/target-env.ts';

/** Every file under a folder, read as text. */
async function filesUnder(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries)
    if (entry.isFile())
      files[join(entry.parentPath, entry.name)] = await readFile(join(entry.parentPath, entry.name), 'utf8');
  return files;
}

describe('a target behind a gateway that wants its own header', () => {
  const servers: Server[] = [];
  let reference: ReferenceTarget;
  let scratch: string;
  // Each API behind its own gateway, each wanting its own key: a value of 40 hex digits, and one of 3 characters (too
  // short for redaction by value, hidden by name).
  const managementKey = randomBytes(20).toString('hex');
  const alertsKey = 'k9z';
  let management: { url: string; log: GatewayLog };
  let alerts: { url: string; log: GatewayLog };

  beforeAll(async () => {
    reference = await startReference();
    scratch = await mkdtemp(join(tmpdir(), 'gateway-'));
    const m = await startGateway(reference.managementUrl, 'x-gateway-key', managementKey);
    const a = await startGateway(reference.alertsUrl, 'cf-access-client-secret', alertsKey);
    servers.push(m.server, a.server);
    management = m;
    alerts = a;
  });

  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await reference?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => targetEnv(reference, { management: management.url, alerts: alerts.url });

  it('sends each API its own header on every request, and the values appear nowhere it writes or prints', async () => {
    const reportDir = join(scratch, 'report');
    const run = await runCli(
      [
        '--runs',
        '2',
        '--seed',
        '5',
        '--report-dir',
        reportDir,
        '--har',
        join(reportDir, 'run.har'),
        '--bundle',
        join(scratch, 'bundle'),
        '--management-header',
        `X-Gateway-Key: ${managementKey}`,
      ],
      { ...env(), CONFORMANCE_ALERTS_HEADERS: `CF-Access-Client-Secret: ${alertsKey}` },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]?.split('; probe classes ')[0]).toBe(
      `Testing management API at ${management.url} with x-gateway-key (--header, values not shown), alerts API at ` +
        `${alerts.url} with cf-access-client-secret (--header, values not shown)`,
    );
    const findings = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8'));
    const preflight = Number(/preflight: .*\((\d+) GET requests?\)/.exec(run.stdout)?.[1]);
    // Every request went through a gateway with its key: none refused, each counted once.
    expect({ refused: management.log.refused + alerts.log.refused }).toEqual({ refused: 0 });
    expect(management.log.passed + alerts.log.passed).toBe(findings.stats.requests + preflight);
    expect(management.log.passed).toBeGreaterThan(100);
    expect(alerts.log.passed).toBeGreaterThan(10);
    // Each header went to its own API only.
    expect(management.log.headerNames.has('cf-access-client-secret')).toBe(false);
    expect(alerts.log.headerNames.has('x-gateway-key')).toBe(false);
    const outputs: Record<string, string> = {
      terminal: run.stdout + run.stderr,
      ...(await filesUnder(reportDir)),
      ...(await filesUnder(join(scratch, 'bundle'))),
    };
    expect(Object.keys(outputs).length).toBeGreaterThan(8);
    const holding = (value: string) => Object.keys(outputs).filter((name) => outputs[name]!.includes(value));
    expect(holding(managementKey)).toEqual([]);
    // The short one is left out wherever the header is written (the HAR, the evidence, the reproductions).
    expect(holding(`${alertsKey}"`)).toEqual([]);
    expect(holding(`: ${alertsKey}`)).toEqual([]);
    const har = JSON.parse(outputs[join(reportDir, 'run.har')]!);
    const sent = har.log.entries.flatMap((e: { request: { headers: { name: string; value: string }[] } }) =>
      e.request.headers.filter((h) => h.name === 'x-gateway-key' || h.name === 'cf-access-client-secret'),
    );
    expect(sent.length).toBeGreaterThan(100);
    expect(new Set(sent.map((h: { value: string }) => h.value))).toEqual(new Set(['[redacted]']));
  }, 120_000);

  it('is exit 2 at the preflight with the gateway’s words when the header is missing or wrong, unshown', async () => {
    const before = management.log.refused;
    const missing = await runCli(['--runs', '2'], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('gateway: access denied, no valid x-gateway-key header');
    expect(missing.stderr).toMatch(/\[CREDENTIALS_REFUSED\]\n$/);
    const wrong = `${managementKey.slice(0, -4)}beef`;
    const refused = await runCli(['--runs', '2', '--header', `X-Gateway-Key: ${wrong}`], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        String.raw`refused the request with a page in text/plain, not in the JSON of the management API \(.*\): ` +
          'when a gateway or proxy in front of the API wrote it, give it what it wants ' +
          String.raw`\(the run sends x-gateway-key with --header\)`,
      ),
    );
    // Given by --management-header, it is named so, not --header.
    const own = await runCli(['--runs', '2', '--management-header', `X-Gateway-Key: ${wrong}`], env());
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('(the run sends x-gateway-key with --management-header)');
    expect(own.stderr).not.toContain('--header');
    expect(refused.stdout + refused.stderr).not.toContain(wrong);
    // Refused at the preflight: no probe was sent.
    expect(management.log.refused - before).toBeLessThanOrEqual(9);
  }, 60_000);

  it("takes the library's headers objects", async () => {
    const before = management.log.passed + alerts.log.passed;
    const run = await runConformance({
      managementUrl: management.url,
      managementKeyId: reference.managementKeyId,
      managementKeySecret: reference.managementKeySecret,
      organization: reference.organizationId,
      service: reference.serviceId,
      alertsUrl: alerts.url,
      alertsToken: reference.alertsToken,
      headers: { 'X-Gateway-Key': managementKey },
      alertsHeaders: { 'CF-Access-Client-Secret': alertsKey },
      runs: 1,
      seed: 3,
      reportDir: join(scratch, 'library'),
    });
    expect(run.exitCode).toBe(0);
    // The run's requests and the preflight's few GETs, all through the gateways.
    const through = management.log.passed + alerts.log.passed - before;
    expect(through).toBeGreaterThan(run.report!.stats.requests);
    expect(through).toBeLessThanOrEqual(run.report!.stats.requests + 4);
    expect(JSON.stringify(run.report)).not.toContain(managementKey);
  }, 120_000);

  it('fails secrets.absent when the gateway returns its key, and still shows the key nowhere', async () => {
    const leaky = await startGateway(reference.managementUrl, 'x-gateway-key', managementKey, { echo: true });
    servers.push(leaky.server);
    const reportDir = join(scratch, 'leaky');
    const run = await runCli(
      ['--runs', '1', '--seed', '9', '--report-dir', reportDir, '--header', `X-Gateway-Key: ${managementKey}`],
      Object.fromEntries(
        Object.entries(targetEnv(reference, { management: leaky.url })).filter(([name]) => !name.startsWith('ALERTS')),
      ),
    );
    expect(run.code).toBe(1);
    const findings = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8'));
    const leaked = findings.results.filter(
      (r: { rule: string; outcome: string }) => r.rule === 'secrets.absent' && r.outcome === 'failed',
    );
    expect(leaked.length).toBeGreaterThan(0);
    const outputs: Record<string, string> = { terminal: run.stdout + run.stderr, ...(await filesUnder(reportDir)) };
    expect(Object.keys(outputs).filter((name) => outputs[name]!.includes(managementKey))).toEqual([]);
  }, 120_000);

  it('refuses a header that would replace the credentials or break HTTP, naming where it came from', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [['--header', 'Authorization: Bearer abc'], {}, '--header: the header "Authorization" would replace'],
      [['--alerts-header', 'Host: elsewhere.test'], {}, '--alerts-header: the header "Host" is set from the base URL'],
      [[], { CONFORMANCE_HEADERS: 'Content-Length: 3' }, 'CONFORMANCE_HEADERS: the header "Content-Length"'],
      [[], { CONFORMANCE_HEADERS: 'X-Key: a\rX-Other: b' }, 'CONFORMANCE_HEADERS: the header "X-Key" has a value'],
      [['--header', 'X Key: abc'], {}, '--header: the header "X Key" is not a valid header name'],
      [['--header', 'no colon'], {}, '--header takes `Name: value` lines, and it has a line without a colon.'],
      [['--header', 'Transfer-Encoding: chunked'], {}, '--header: the header "Transfer-Encoding" is set from'],
      [['--header', 'Connection: close'], {}, '--header: the header "Connection" is managed by the HTTP client'],
    ];
    for (const [args, variables, message] of cases) {
      const run = await runCli(['--dry-run', ...args], variables);
      expect(run.code, args.join(' ') || JSON.stringify(variables)).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toMatch(/\[CONFIG_INVALID\]\n$/);
      expect(run.stderr).not.toMatch(/Bearer abc|elsewhere\.test|chunked/);
    }
  }, 60_000);
});
