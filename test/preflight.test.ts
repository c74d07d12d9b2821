import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from '../engine/preflight.ts';
import { main } from '../cli/main.ts';
import { resolveConfig } from '../settings/config.ts';
import { isHarnessError } from '../core/errors.ts';
import { loadSpecs, type Specs } from '../spec/spec.ts';
import { FAULT_NAMES } from '../reference/faults.ts';
import { MODE_NAMES } from '../reference/modes.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { RULE_IDS } from '../rules/index.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';
import { targetEnv } from './support/target-env.ts';
import { pipesSuite } from '../suites/pipes/pipes.ts';
import { runConformance } from '../cli/run-conformance.ts';

const servers: Server[] = [];

/** A small HTTP server on a loopback port 0 that answers every request with `listener`. */
async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The settings of a correct run against a reference target: both APIs, the backup, a tile alert. */
function envFor(target: ReferenceTarget): Record<string, string> {
  return {
    ...targetEnv(target),
    ALERT_ID: target.alertIds[0]!,
  };
}

/**
 * Runs the `conformance` command in this process; what it printed, its exit code, and whether the run wrote reports.
 */
async function command(
  env: Record<string, string>,
  args: readonly string[] = [],
): Promise<{ code: number; output: string; wroteReports: boolean }> {
  const reportDir = await mkdtemp(join(tmpdir(), 'preflight-'));
  const lines: string[] = [];
  const code = await main(['--report-dir', reportDir, ...args], env, {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
  });
  return { code, output: lines.join('\n'), wroteReports: (await readdir(reportDir)).length > 0 };
}

async function preflightError(env: Record<string, string>): Promise<{ code: string; message: string }> {
  try {
    await preflight(resolveConfig([], env, RULE_IDS), specs);
  } catch (error) {
    if (isHarnessError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the preflight to refuse the settings');
}

let specs: Specs;
let reference: ReferenceTarget;

beforeAll(async () => {
  specs = await loadSpecs();
  reference = await startReference();
});

afterAll(async () => {
  await reference.close();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Regex source of a loopback server's origin, as a message prints it. */
const LOOPBACK = String.raw`http://127\.0\.0\.1:\d+`;

/** Regex source of a uuid, as a message prints it. */
const UUID = '[-0-9a-f]{36}';

/** The last line of a refused run, `conformance: MESSAGE [CODE]`, with MESSAGE matched by `parts` of regex source. */
function refusal(code: string, ...parts: readonly string[]): RegExp {
  return new RegExp(String.raw`^conformance: ${parts.join('')} \[${code}\]$`);
}

describe('a misconfigured run is exit 2 naming the setting, before any probe', () => {
  const html = (): Promise<string> =>
    serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Welcome</title><p>It works!</p>');
    });
  /** A server that sends every request under `/old` to the same path and query under `to`. */
  const movedTo = (to: string): Promise<string> =>
    serve((req, res) => {
      res.writeHead(308, { location: `${to}${(req.url ?? '/').replace(/^\/old/, '')}` });
      res.end();
    });
  const notFound = (): Promise<string> =>
    serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });

  const cases: readonly (readonly [string, () => Promise<Record<string, string>>, RegExp])[] = [
    [
      'a wrong key secret',
      async () => ({ ...envFor(reference), MANAGEMENT_KEY_SECRET: 'not-the-secret' }),
      refusal(
        'CREDENTIALS_REFUSED',
        String.raw`The management API refused the key \(GET ${LOOPBACK}/v1/organizations/[-0-9a-f]+/usageCost\?\S+ `,
        'answered 401 .*check that MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET are a key .*',
      ),
    ],
    [
      'a wrong token',
      async () => ({ ...envFor(reference), ALERTS_TOKEN: 'not-the-token' }),
      refusal(
        'CREDENTIALS_REFUSED',
        `The alerts API refused ALERTS_TOKEN \\(GET ${LOOPBACK}/api/v2/alerts answered 401 `,
        '.*check ALERTS_TOKEN.*',
      ),
    ],
    [
      'an unknown organization',
      async () => ({ ...envFor(reference), ORGANIZATION_ID: randomUUID() }),
      refusal(
        'TARGET_UNKNOWN_ID',
        String.raw`ORGANIZATION_ID ${UUID} is not an organization the management API knows \(`,
        String.raw`GET .* answered 404 .*, and 401 without the key\): check ORGANIZATION_ID.*`,
      ),
    ],
    [
      'an organization that is no uuid',
      async () => ({ ...envFor(reference), ORGANIZATION_ID: 'my-org' }),
      refusal(
        'TARGET_UNKNOWN_ID',
        `ORGANIZATION_ID "my-org" is not a uuid `,
        String.raw`.*answered 400.*\): check ORGANIZATION_ID\.`,
      ),
    ],
    [
      'an unknown backup',
      async () => ({ ...envFor(reference), BACKUP_ID: randomUUID() }),
      refusal(
        'TARGET_UNKNOWN_ID',
        `BACKUP_ID ${UUID} is not a backup the management API knows `,
        String.raw`under service ${UUID} \(GET .* answered 404 .*\): check BACKUP_ID .*and SERVICE_ID.*`,
      ),
    ],
    [
      'a backup under an unknown service',
      async () => ({ ...envFor(reference), SERVICE_ID: randomUUID() }),
      refusal(
        'TARGET_UNKNOWN_ID',
        'BACKUP_ID .* is not a backup the management API knows under service ' +
          '.*answered 404.*serviceId .* was not found.*',
      ),
    ],
    [
      'an unknown alert',
      async () => ({ ...envFor(reference), ALERT_ID: 'no-such-alert' }),
      refusal(
        'TARGET_UNKNOWN_ID',
        `ALERT_ID no-such-alert is not among the 4 alerts the alerts API lists `,
        String.raw`\(GET ${LOOPBACK}/api/v2/alerts\): give .*`,
      ),
    ],
    [
      'a saved-search alert',
      async () => ({ ...envFor(reference), ALERT_ID: reference.alertIds[2]! }),
      refusal(
        'ALERT_NOT_UPDATABLE',
        String.raw`ALERT_ID \w+ names an alert the run may not update \(`,
        String.raw`it is a saved-search alert \(source "search"\).*`,
      ),
    ],
    [
      '/v1 in the base URL',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: `${reference.managementUrl}/v1` }),
      refusal(
        'CONFIG_INVALID',
        String.raw`MANAGEMENT_BASE_URL ends with /v1, but the harness appends the API's paths \(/v1/\.\.\.\) to it: `,
        String.raw`drop /v1 and give ${LOOPBACK}\.`,
      ),
    ],
    [
      'a management URL that serves a web page',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: await html() }),
      refusal(
        'NOT_THE_API',
        String.raw`MANAGEMENT_BASE_URL \(${LOOPBACK}\) answers, but not as the management API: `,
        String.raw`GET .* answered 200 \(text/html; charset=utf-8\): `,
        '<!doctype html><title>Welcome</title><p>It works!</p>',
        String.raw`, not JSON\. Set MANAGEMENT_BASE_URL .*`,
      ),
    ],
    [
      'a management URL that answers 404 on every path',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: await notFound() }),
      refusal(
        'NOT_THE_API',
        String.raw`MANAGEMENT_BASE_URL \(${LOOPBACK}\) answers, but not as the management API \(`,
        String.raw`GET .* answered 404 \(text/plain\): `,
        String.raw`Not Found, with the key and without it\): set MANAGEMENT_BASE_URL .*`,
      ),
    ],
    [
      'a management URL that redirects each request to the same path under another base URL',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: `${await movedTo(reference.managementUrl)}/old` }),
      refusal(
        'NOT_THE_API',
        String.raw`MANAGEMENT_BASE_URL \(${LOOPBACK}/old\) answers, but moves the management API elsewhere: `,
        String.raw`GET ${LOOPBACK}/old/v1/\S+ answered 308, empty body, a redirect to ${LOOPBACK}/v1/\S+\. `,
        'The run sends each request to its documented path under the base URL and follows no redirect: ',
        String.raw`set MANAGEMENT_BASE_URL to ${LOOPBACK}\.`,
      ),
    ],
    [
      'the management URL pointed at the alerts API',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: reference.alertsUrl }),
      /^conformance: MANAGEMENT_BASE_URL .* answers, but not as the management API \(.*404.* \[NOT_THE_API\]$/,
    ],
    [
      'an alerts URL that is not the API',
      async () => ({ ...envFor(reference), ALERTS_BASE_URL: await notFound() }),
      refusal(
        'NOT_THE_API',
        String.raw`ALERTS_BASE_URL \(${LOOPBACK}\) answers, but not as the alerts API \(`,
        'GET .*/api/v2/alerts answered 404 .*\\): set ALERTS_BASE_URL .*',
      ),
    ],
    [
      'an empty MANAGEMENT_BASE_URL with the keys set',
      async () => ({ ...envFor(reference), MANAGEMENT_BASE_URL: '' }),
      /^conformance: MANAGEMENT_BASE_URL is set but empty: give it a value.* \[CONFIG_MISSING\]$/,
    ],
    [
      'the keys and ids without MANAGEMENT_BASE_URL',
      async () => {
        const { MANAGEMENT_BASE_URL: _url, ...env } = envFor(reference);
        return env;
      },
      refusal(
        'CONFIG_MISSING',
        String.raw`MANAGEMENT_BASE_URL \(--management-url\) is not set, `,
        'but MANAGEMENT_KEY_ID, MANAGEMENT_KEY_SECRET, ORGANIZATION_ID, SERVICE_ID, BACKUP_ID are: .*',
      ),
    ],
  ];

  it.each(cases)('%s', async (_what, settings, message) => {
    const env = await settings();
    const run = await command(env, ['--runs', '1']);
    expect(run.output.split('\n').at(-1)).toMatch(message);
    expect(run.code).toBe(2);
    expect(run.wroteReports).toBe(false);
    expect(run.output).not.toContain(reference.managementKeySecret);
    expect(run.output).not.toContain(reference.alertsToken);
  });
});

describe('a correct target passes the preflight, never crying wolf', () => {
  it.each(MODE_NAMES)('the reference target in mode %s', async (mode) => {
    const target = await startReference({ modes: [mode] });
    try {
      const report = await preflight(resolveConfig([], envFor(target), RULE_IDS), specs);
      expect(report.line).toBe(
        'preflight: management credentials, organization, service and backup ok; alerts token ok, alert ' +
          `${target.alertIds[0]} updatable (${report.requests} GET requests)`,
      );
      expect(report.requests).toBeGreaterThanOrEqual(3);
    } finally {
      await target.close();
    }
  });

  it('the reference target in every mode at once, ids upper-cased by the user', async () => {
    const target = await startReference({ modes: MODE_NAMES.filter((m) => m !== 'slow') });
    try {
      const env = envFor(target);
      const upper = {
        ...env,
        ORGANIZATION_ID: env.ORGANIZATION_ID!.toUpperCase(),
        BACKUP_ID: env.BACKUP_ID!.toUpperCase(),
        ALERT_ID: env.ALERT_ID!.toUpperCase(),
      };
      expect((await preflight(resolveConfig([], upper, RULE_IDS), specs)).line).toMatch(
        /^preflight: management credentials, organization, service and backup ok; alerts token ok, alert \w+ updatable/,
      );
    } finally {
      await target.close();
    }
  });

  it('every fault of the reference target is left to the run: a contract failure is no settings error', async () => {
    const lines: string[] = [];
    for (const fault of FAULT_NAMES) {
      const target = await startReference({ faults: [fault] });
      try {
        const config = resolveConfig(['--timeout-ms', '1000'], envFor(target), RULE_IDS);
        lines.push(`${fault}: ${(await preflight(config, specs)).line}`);
      } finally {
        await target.close();
      }
    }
    expect(lines.filter((line) => line.includes('left to the run'))).toEqual([
      expect.stringMatching(
        new RegExp(
          '^backup-connection-reset: preflight: management credentials, organization ok, ' +
            String.raw`service and backup unchecked: GET .* got no answer \(connection\), left to the run;`,
        ),
      ),
    ]);
  }, 60_000);

  it('waits out a 429 and retries; a 5xx, a redirect or a hang is left to the run', async () => {
    let calls = 0;
    const limited = await serve((_req, res) => {
      calls += 1;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '0.2', 'content-type': 'text/plain' });
        res.end('slow down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [] }));
    });
    const alertsOnly = (url: string, args: string[] = []) =>
      resolveConfig(args, { ALERTS_BASE_URL: url, ALERTS_TOKEN: 'token-value' }, RULE_IDS);
    const report = await preflight(alertsOnly(limited), specs);
    expect(report).toEqual({ line: 'preflight: alerts token ok (2 GET requests)', requests: 2 });

    const failing = await serve((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<h1>Service Unavailable</h1>');
    });
    expect((await preflight(alertsOnly(failing), specs)).line).toMatch(
      /^preflight: alerts unchecked: GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/alerts answered 503, left to the run/,
    );

    const redirecting = await serve((_req, res) => {
      res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    expect((await preflight(alertsOnly(redirecting), specs)).line).toMatch(/answered 307, left to the run/);

    const hanging = await serve(() => {
      /* never answers */
    });
    expect((await preflight(alertsOnly(hanging, ['--timeout-ms', '300']), specs)).line).toMatch(
      /got no answer \(timeout\), left to the run/,
    );
  });

  it('a target that cannot be reached at all stays TARGET_UNREACHABLE', async () => {
    const error = await preflightError({ ALERTS_BASE_URL: 'http://127.0.0.1:9', ALERTS_TOKEN: 'token-value' });
    expect(error).toEqual({
      code: 'TARGET_UNREACHABLE',
      message:
        'Cannot reach ALERTS_BASE_URL (http://127.0.0.1:9): ECONNREFUSED; check the URL and that the target is up.',
    });
  });
});

describe('the preflight counts against --max-requests', () => {
  it('plans around its GETs, and the target receives no more requests than the limit', async () => {
    const wire: WireExchange[] = [];
    const management = await recordingProxy(reference.managementUrl, wire);
    const alerts = await recordingProxy(reference.alertsUrl, wire);
    servers.push(management.server, alerts.server);
    const env = { ...envFor(reference), MANAGEMENT_BASE_URL: management.url, ALERTS_BASE_URL: alerts.url };
    // 430: the essential probes with the sequences' fit (one example per property plans about 415 requests, with the
    // neighbourhood's probes, the credential forms and the reads signed with disabled keys).
    const settings = ['--max-requests', '430', '--seed', '3', '--allow', 'read,write'];
    const dry = await command(env, ['--dry-run', ...settings]);
    expect(dry.output).toContain('--max-requests 430, 3 of them kept for the preflight');
    const planned = Number(/Total: (\d+) request/.exec(dry.output)?.[1]);
    expect(planned).toBeLessThanOrEqual(427);
    const run = await command(env, settings);
    expect(run.output).toMatch(/\(3 GET requests\)/);
    expect(wire.length).toBeGreaterThan(planned / 2);
    expect(wire.length).toBeLessThanOrEqual(430);
    expect(run.output).not.toMatch(/reached --max-requests/);
  });
});

describe('vitest starts while the preflight runs', () => {
  it('sends no probe when the preflight refuses the settings, and says nothing of the run it gave up', async () => {
    const wire: WireExchange[] = [];
    const management = await recordingProxy(reference.managementUrl, wire);
    const alerts = await recordingProxy(reference.alertsUrl, wire);
    servers.push(management.server, alerts.server);
    const env = {
      ...envFor(reference),
      MANAGEMENT_BASE_URL: management.url,
      ALERTS_BASE_URL: alerts.url,
      ALERTS_TOKEN: 'not-the-token',
    };
    const run = await command(env, ['--seed', '3']);
    expect(run.code).toBe(2);
    expect(run.output.split('\n').at(-1)).toMatch(/refused ALERTS_TOKEN.*\[CREDENTIALS_REFUSED\]$/);
    expect(run.output).not.toMatch(/passed|failed|skipped|requests sent/);
    expect(run.wroteReports).toBe(false);
    // Only the preflight's GETs reached the target: the worker, started meanwhile, was told to give the run up.
    expect(wire.length).toBeGreaterThan(0);
    expect(wire.every((exchange) => exchange.method === 'GET')).toBe(true);
    expect(wire.length).toBeLessThanOrEqual(3);
  });
});

describe("another tenant's settings are checked like the run's own", () => {
  /** The OTHER_* settings the reference target gives. */
  const otherEnv = (target: ReferenceTarget): Record<string, string> =>
    Object.fromEntries(
      target.apis.flatMap((api) => Object.entries(api.settings)).filter(([name]) => name.startsWith('OTHER_')),
    );

  it('passes them on their own organization and list, and exits 2 naming the variable the target refuses', async () => {
    const target = await startReference();
    try {
      const env = { ...envFor(target), ...otherEnv(target) };
      expect(Object.keys(otherEnv(target)).sort()).toEqual([
        'OTHER_ALERTS_TOKEN',
        'OTHER_MANAGEMENT_KEY_ID',
        'OTHER_MANAGEMENT_KEY_SECRET',
        'OTHER_ORGANIZATION_ID',
      ]);
      const report = await preflight(resolveConfig([], env, RULE_IDS), specs);
      expect(report.line).toBe(
        'preflight: management credentials, organization, service and backup ok, other tenant credentials, ' +
          `organization ok; alerts token ok, alert ${target.alertIds[0]} updatable, other tenant token ok ` +
          `(${report.requests} GET requests)`,
      );
      const wrongSecret = await preflightError({ ...env, OTHER_MANAGEMENT_KEY_SECRET: 'not-the-secret' });
      expect(wrongSecret.code).toBe('CREDENTIALS_REFUSED');
      expect(wrongSecret.message).toMatch(
        new RegExp(
          '^The management API refused OTHER_MANAGEMENT_KEY_ID and OTHER_MANAGEMENT_KEY_SECRET on ' +
            String.raw`OTHER_ORGANIZATION_ID \(.*\): check that they are the HTTP Basic credentials of a key of ` +
            'another organization, of the one OTHER_ORGANIZATION_ID names, or unset .* to leave ' +
            String.raw`access\.other-tenant not judged\.$`,
        ),
      );
      expect(wrongSecret.message).not.toContain(env.OTHER_MANAGEMENT_KEY_ID);
      const ownOrganization = await preflightError({ ...env, OTHER_ORGANIZATION_ID: target.organizationId });
      expect(ownOrganization.code).toBe('TARGET_UNKNOWN_ID');
      expect(ownOrganization.message).toMatch(/^OTHER_ORGANIZATION_ID is not known to the management API/);
      const wrongToken = await preflightError({ ...env, OTHER_ALERTS_TOKEN: 'not-the-token' });
      expect(wrongToken.code).toBe('CREDENTIALS_REFUSED');
      expect(wrongToken.message).toMatch(/^The alerts API refused OTHER_ALERTS_TOKEN/);
    } finally {
      await target.close();
    }
  });

  it('blames no setting for a target that ignores credentials: auth.required, access.other-tenant fail', async () => {
    const target = await startReference({ faults: ['credentials-ignored'] });
    try {
      const env = { ...envFor(target), ...otherEnv(target) };
      const run = await command(env, ['--seed', '3', '--runs', '4']);
      expect(run.output).toContain(
        'other tenant unchecked: OTHER_MANAGEMENT_KEY_ID, OTHER_MANAGEMENT_KEY_SECRET, OTHER_ORGANIZATION_ID ' +
          'answered as no credentials are (HTTP 404), left to the run',
      );
      expect(run.output).not.toMatch(/is not known to the management API|\[TARGET_UNKNOWN_ID\]/);
      expect(run.output).toMatch(/✗ auth\.required/);
      expect(run.output).toMatch(/✗ access\.other-tenant/);
      expect(run.code).toBe(1);
    } finally {
      await target.close();
    }
  });
});

describe('an id no read can check is confirmed by the first write, alone, before any probe', () => {
  /** The settings of a run without BACKUP_ID, through recording proxies: SERVICE_ID has no read to check it. */
  async function recorded(target: ReferenceTarget, wire: WireExchange[]): Promise<Record<string, string>> {
    const management = await recordingProxy(target.managementUrl, wire);
    const alerts = await recordingProxy(target.alertsUrl, wire);
    servers.push(management.server, alerts.server);
    const { BACKUP_ID: _backup, ...env } = targetEnv(target, { management: management.url, alerts: alerts.url });
    return env;
  }

  it(
    'an unknown SERVICE_ID is exit 2 naming it, with one pipe create sent, nothing created, ' + 'no verdict printed',
    async () => {
      const wire: WireExchange[] = [];
      const env = { ...(await recorded(reference, wire)), SERVICE_ID: randomUUID() };
      const run = await command(env, ['--seed', '3']);
      expect(run.output.split('\n').at(-1)).toMatch(
        refusal(
          'TARGET_UNKNOWN_ID',
          `SERVICE_ID ${UUID} is not a service the management API knows in organization ${UUID} `,
          String.raw`\(the one pipe create sent to confirm it, before any probe: POST ${LOOPBACK}/v1/\S+/pipes `,
          String.raw`answered 404 .*"error":"serviceId ${UUID} was not found"\}\): check SERVICE_ID\.`,
        ),
      );
      expect(run.code).toBe(2);
      expect(run.wroteReports).toBe(false);
      expect(run.output).not.toMatch(/✓|✗|passed|the target gave no value/);
      expect(wire.filter((exchange) => exchange.method !== 'GET').map((e) => `${e.method} ${e.status}`)).toEqual([
        'POST 404',
      ]);
      expect(wire.length).toBeLessThanOrEqual(3);
    },
  );

  it('names the setting as the user gave it: --service, a key of the settings file, a key of the library', async () => {
    const wire: WireExchange[] = [];
    const { SERVICE_ID: _service, ...env } = await recorded(reference, wire);
    const unknown = randomUUID();
    const flag = await command(env, ['--service', unknown]);
    expect(flag.output.split('\n').at(-1)).toMatch(
      new RegExp(`^conformance: --service ${unknown} is not a service.*: check --service\\. \\[TARGET_UNKNOWN_ID\\]$`),
    );
    const folder = await mkdtemp(join(tmpdir(), 'preflight-file-'));
    await writeFile(join(folder, 'team.json'), JSON.stringify({ service: unknown }));
    const file = await command(env, ['--config', join(folder, 'team.json')]);
    expect(file.output.split('\n').at(-1)).toMatch(
      new RegExp(
        String.raw`^conformance: service in .*team\.json \S+ is not a service.*: ` +
          String.raw`check service in .*team\.json\. \[TARGET_UNKNOWN_ID\]$`,
      ),
    );
    const library = await runConformance({
      managementUrl: env.MANAGEMENT_BASE_URL,
      managementKeyId: env.MANAGEMENT_KEY_ID,
      managementKeySecret: env.MANAGEMENT_KEY_SECRET,
      organization: env.ORGANIZATION_ID,
      service: unknown,
      reportDir: await mkdtemp(join(tmpdir(), 'preflight-library-')),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(library).toMatchObject({
      code: 'TARGET_UNKNOWN_ID',
      message: expect.stringMatching(/^service \S+ is not a service .*: check service\.$/),
    });
    expect(wire.filter((exchange) => exchange.method !== 'GET' && exchange.status !== 404)).toEqual([]);
  });

  it(
    'a known SERVICE_ID is confirmed by the pipe it creates, which the run lists; none is sent when the run ' +
      'sends none',
    async () => {
      const wire: WireExchange[] = [];
      const env = await recorded(reference, wire);
      const report = await preflight(resolveConfig([], env, RULE_IDS), specs, undefined, pipesSuite().confirmingWrites);
      expect(report.line).toMatch(
        new RegExp(
          '^preflight: management credentials, organization, service ok ' +
            String.raw`\(SERVICE_ID by a createPipe, which created ${UUID}\); ` +
            String.raw`alerts token ok \(2 GET requests and 1 POST\)$`,
        ),
      );
      expect(report.created).toEqual([
        expect.objectContaining({ kind: 'created', operation: 'createPipe', id: expect.stringMatching(UUID) }),
      ]);
      const run = await command(env, ['--seed', '3', '--runs', '1', '--rules', 'auth.required']);
      expect(run.code).toBe(0);
      expect(run.output).toMatch(/service ok \(SERVICE_ID by a createPipe, which created/);
      const readOnly = await command(env, ['--seed', '3', '--allow', 'read']);
      expect(readOnly.output).toMatch(
        /SERVICE_ID unchecked \(the API has no read of a service, and the run sends no pipe/,
      );
      const keysOnly = await command(env, ['--seed', '3', '--runs', '1', '--rules', 'keys.roles-enum']);
      expect(keysOnly.output).toMatch(/SERVICE_ID unchecked/);
      expect(keysOnly.output).toMatch(/\(2 GET requests\)/);
    },
  );
});

describe("messages name the true cause, as one sentence, with the target's words whole", () => {
  const base = (): Record<string, string> => {
    const { ALERTS_BASE_URL: _url, ALERTS_TOKEN: _token, ALERT_ID: _alert, ...env } = envFor(reference);
    return env;
  };

  it("a base URL that asks for the other API's scheme is the other API, not refused credentials", async () => {
    const alertsLike = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="alerts"' });
      res.end(JSON.stringify({ message: 'missing bearer token' }));
    });
    const run = await command({ ...base(), MANAGEMENT_BASE_URL: alertsLike });
    expect(run.output.split('\n').at(-1)).toMatch(
      refusal(
        'NOT_THE_API',
        String.raw`MANAGEMENT_BASE_URL \(${LOOPBACK}\) asks for a Bearer token \(GET .* answered 401 .*, `,
        String.raw`WWW-Authenticate: Bearer realm="alerts"\), but the management API takes HTTP Basic: `,
        String.raw`MANAGEMENT_BASE_URL is likely the other API's URL, so set it to the management API's\.`,
      ),
    );
    expect(run.code).toBe(2);
  });

  it("quotes the target's explanation whole, not cut at 120 characters", async () => {
    const explanation = `organization is suspended: ${'the billing contact must renew the contract first; '.repeat(5)}`;
    const explaining = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 404, message: explanation }));
    });
    const run = await command({ ...base(), MANAGEMENT_BASE_URL: explaining });
    expect(explanation.length).toBeGreaterThan(250);
    expect(run.output).toContain(JSON.stringify(explanation));
    expect(run.code).toBe(2);
  });

  it('an https URL on a plain-http port says so in words', async () => {
    const https = reference.managementUrl.replace(/^http:/, 'https:');
    const run = await command({ ...base(), MANAGEMENT_BASE_URL: https });
    expect(run.output.split('\n').at(-1)).toMatch(
      refusal(
        'TARGET_UNREACHABLE',
        String.raw`MANAGEMENT_BASE_URL \(https://127\.0\.0\.1:\d+\) is an https URL, but the server at `,
        String.raw`127\.0\.0\.1:\d+ answers in plain HTTP, not TLS \(\w+\): give http://127\.0\.0\.1:\d+ if the API `,
        'is served without TLS there, or the port on which it serves https.',
      ),
    );
  });

  it('names the base URL as given: --management-url, and managementUrl from the library', async () => {
    const notFound = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
    const { MANAGEMENT_BASE_URL: _url, ...env } = base();
    const run = await command(env, ['--management-url', notFound]);
    expect(run.output.split('\n').at(-1)).toMatch(
      new RegExp(
        String.raw`^conformance: --management-url \(${LOOPBACK}\) answers, but not as the management API .*: ` +
          'set --management-url to ',
      ),
    );
    const library = await runConformance({
      managementUrl: notFound,
      managementKeyId: reference.managementKeyId,
      managementKeySecret: reference.managementKeySecret,
      organization: reference.organizationId,
      service: reference.serviceId,
      reportDir: await mkdtemp(join(tmpdir(), 'preflight-library-')),
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(library).toMatchObject({ message: expect.stringMatching(/^managementUrl \(.*\): set managementUrl to /) });
  });

  it('a missing OTHER_ORGANIZATION_ID is said in one plain sentence', async () => {
    const { OTHER_ORGANIZATION_ID: _id, ...other } = Object.fromEntries(
      reference.apis
        .flatMap((api) => Object.entries(api.settings))
        .filter(([name]) => name.startsWith('OTHER_MANAGEMENT') || name === 'OTHER_ORGANIZATION_ID'),
    );
    const run = await command({ ...base(), ...other });
    expect(run.output.split('\n').at(-1)).toBe(
      'conformance: OTHER_ORGANIZATION_ID is not set: it is the organization of that key, needed for this target. ' +
        'Set it and run again. [CONFIG_MISSING]',
    );
  });
});
