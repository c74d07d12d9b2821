import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand } from '../evidence/curl.ts';
import type { Exchange, RecordedRequest } from '../transport/exchange.ts';
import type { Probe, ProbeIntent } from '../core/probe-types.ts';
import { createSecretIndex } from '../secrets/secret-index.ts';
import { loadSpecs, type Specs } from '../spec/spec.ts';
import { createValidators } from '../spec/validators.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { RULES } from '../rules/index.ts';
import { valuesUnder } from '../secrets/secret-registry.ts';
import { runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';

const run = promisify(execFile);

/** Faulty targets whose findings' curls must reproduce, with the intent of the probes behind those findings. */
const CASES: ReadonlyArray<{ fault: string; rule: string; intent: ProbeIntent }> = [
  { fault: 'broker-credentials-echoed', rule: 'secrets.absent', intent: 'accept' },
  { fault: 'auth-any-secret', rule: 'auth.required', intent: 'reject' },
  { fault: 'pipe-name-changed', rule: 'pipes.reflects-request', intent: 'accept' },
];

/** What curl printed with `-i`: the last status line, the headers under it, and the body. */
function parseCurlOutput(output: string): { status: number; headers: Record<string, string>; text: string } {
  const split = output.indexOf('\r\n\r\n');
  const head = output.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0] ?? '')?.[1]);
  const headers = Object.fromEntries(
    head.slice(1).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status, headers, text: output.slice(split + 4) };
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * Every string under a request-only secret field of a request body: what the harness generated and `secrets.absent`
 * looks for.
 */
function generatedSecrets(body: unknown, specs: Specs): string[] {
  return valuesUnder(body, specs.requestOnlySecretFields);
}

/** A failed finding as findings.json reports it (with or without its own evidence). */
interface Reported {
  readonly rule: string;
  readonly operation: string;
  readonly probe: string;
  readonly path: string;
  /** The status the harness got. */
  readonly status: number | string | undefined;
  readonly curl: string;
}

/** Every finding of every failed result in a findings.json document. */
function reportedFindings(report: { results: readonly unknown[] }): Reported[] {
  type Loose = {
    probe: string;
    path: string;
    status?: number | string;
    evidence?: { response?: { status: number }; failure?: { code: string } };
    reproduce: { curl: string };
  };
  const results = report.results as Array<{ rule: string; operation: string; outcome: string; findings: Loose[] }>;
  return results
    .filter((r) => r.outcome === 'failed')
    .flatMap((r) =>
      r.findings.map((f) => ({
        rule: r.rule,
        operation: r.operation,
        probe: f.probe,
        path: f.path,
        status: f.status ?? f.evidence?.response?.status ?? f.evidence?.failure?.code,
        curl: f.reproduce.curl,
      })),
    );
}

interface Reproduced {
  readonly finding: Reported;
  readonly status: number;
  readonly wire: WireExchange;
  readonly paths: readonly string[];
  /** Whether the harness sent a request with these very bytes (method, path, Authorization, body) during its run. */
  readonly sentByHarness: boolean;
}

describe("each failed finding's curl reproduces it", () => {
  let specs: Specs;
  const targets: ReferenceTarget[] = [];
  const proxies: Server[] = [];

  beforeAll(async () => {
    specs = await loadSpecs();
  });

  afterAll(async () => {
    for (const server of proxies) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await Promise.all(targets.map((t) => t.close()));
  });

  /** Runs the harness against the fault, then each finding's curl through the same recording proxy. */
  async function reproduce(
    fault: string,
    intent: ProbeIntent,
  ): Promise<{ findings: Reported[]; reproduced: Reproduced[]; reference: ReferenceTarget }> {
    const reference = await startReference({ faults: [fault] });
    targets.push(reference);
    const wire: WireExchange[] = [];
    const management = await recordingProxy(reference.managementUrl, wire);
    const alerts = await recordingProxy(reference.alertsUrl, wire);
    proxies.push(management.server, alerts.server);
    const credentials = {
      MANAGEMENT_KEY_ID: reference.managementKeyId,
      MANAGEMENT_KEY_SECRET: reference.managementKeySecret,
      ALERTS_TOKEN: reference.alertsToken,
    };
    const result = await runInProcess(['--runs', '2', '--seed', '31'], {
      ...credentials,
      MANAGEMENT_BASE_URL: management.url,
      ALERTS_BASE_URL: alerts.url,
      ORGANIZATION_ID: reference.organizationId,
      SERVICE_ID: reference.serviceId,
      BACKUP_ID: reference.backupId,
    });
    expect(result.code).toBe(1);
    const harnessWire = [...wire];
    const same = (a: WireExchange, b: WireExchange): boolean =>
      a.method === b.method &&
      a.path === b.path &&
      a.requestBody === b.requestBody &&
      a.requestHeaders.authorization === b.requestHeaders.authorization;
    const findings = reportedFindings(result.report);
    const reproduced: Reproduced[] = [];
    for (const finding of findings) {
      const before = wire.length;
      const { stdout } = await run('/bin/sh', ['-c', finding.curl], { env: { PATH: '/usr/bin:/bin', ...credentials } });
      expect(wire.length, finding.curl).toBe(before + 1);
      const sent = wire[before]!;
      const answer = parseCurlOutput(stdout);
      const operation = specs.operations.find((op) => op.key === finding.operation)!;
      const base = operation.api === 'management' ? management.url : alerts.url;
      const probe = { intent, klass: 'read', label: finding.probe, rules: [finding.rule] } as unknown as Probe;
      const exchange: Exchange = {
        api: operation.api,
        operation: operation.key,
        operationId: operation.operationId,
        probe,
        request: {
          method: sent.method,
          url: `${base}${sent.path}`,
          headers: Object.fromEntries(Object.entries(sent.requestHeaders).map(([k, v]) => [k, String(v)])),
          auth: 'default',
          params: {},
          query: {},
          body: sent.requestBody,
          ...(json(sent.requestBody) === undefined ? {} : { json: json(sent.requestBody) }),
        },
        response: { ...answer, ...(json(answer.text) === undefined ? {} : { json: json(answer.text) }), durationMs: 0 },
      };
      const rule = RULES.find((r) => r.id === finding.rule)!;
      const context = {
        operation,
        specs,
        validators: createValidators(),
      };
      // The rule's memory of the run as far as this one request goes: the secrets it sent, no requestId seen before.
      const memory =
        rule.id === 'secrets.absent'
          ? createSecretIndex(generatedSecrets(exchange.request.json, specs))
          : new Set<string>();
      const paths = rule.applies(exchange) ? rule.check(exchange, context, memory).map((v) => v.path) : [];
      reproduced.push({
        finding,
        status: answer.status,
        wire: sent,
        paths,
        sentByHarness: harnessWire.some((e) => same(e, sent)),
      });
    }
    return { findings, reproduced, reference };
  }

  for (const { fault, rule, intent } of CASES) {
    it(`${fault}: every finding's curl gets the same status and the same violation of ${rule}`, async () => {
      const { findings, reproduced, reference } = await reproduce(fault, intent);
      expect(findings.filter((f) => f.rule === rule).length).toBeGreaterThan(0);
      const credentials = `${reference.managementKeyId}:${reference.managementKeySecret}`;
      const realBasic = `Basic ${Buffer.from(credentials).toString('base64')}`;
      for (const { finding, status, paths, wire, sentByHarness } of reproduced) {
        const { curl } = finding;
        expect(status, curl).toBe(finding.status);
        expect(paths, curl).toContain(finding.path);
        for (const secret of [reference.managementKeySecret, reference.alertsToken, reference.managementKeyId])
          expect(curl).not.toContain(secret);
        expect(sentByHarness, `curl sends the bytes the harness sent: ${curl}`).toBe(true);
        // The run's own credentials went out, and the curl names them by their variables.
        if (wire.requestHeaders.authorization === realBasic)
          expect(curl).toContain('-u "$MANAGEMENT_KEY_ID:$MANAGEMENT_KEY_SECRET"');
        if (wire.requestHeaders.authorization === `Bearer ${reference.alertsToken}`)
          expect(curl).toContain('"Authorization: Bearer $ALERTS_TOKEN"');
      }
    }, 60_000);
  }

  it("auth-any-secret: the wrong-secret curl sends the key id from $MANAGEMENT_KEY_ID and the probe's own " +
    'wrong secret', async () => {
    const { reproduced, reference } = await reproduce('auth-any-secret', 'reject');
    const wrongSecret = reproduced.filter(
      (r) =>
        /^a wrong (key secret|secret or token)$/.test(r.finding.probe) &&
        String(r.wire.requestHeaders.authorization).startsWith('Basic '),
    );
    expect(wrongSecret.length).toBeGreaterThan(0);
    for (const { finding, wire } of wrongSecret) {
      expect(finding.curl).toMatch(/-u "\$MANAGEMENT_KEY_ID:wrong-[A-Za-z0-9_-]+"/);
      const [user, password] = Buffer.from(String(wire.requestHeaders.authorization).replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(':');
      expect(user).toBe(reference.managementKeyId);
      expect(password).toMatch(/^wrong-/);
      expect(finding.curl).toContain(password);
    }
  }, 60_000);
});

describe('curlCommand', () => {
  const credentials = { management: { user: 'kid-1', password: 'real-secret-1' }, alerts: { token: 'real-token-1' } };
  const redact = (text: string): string => text.split('returned-key-secret').join('[redacted]');
  const request = (headers: Record<string, string>, auth: RecordedRequest['auth'], body?: string): RecordedRequest => ({
    method: 'POST',
    url: 'http://127.0.0.1:1/api/v2/alerts',
    headers: { accept: 'application/json', 'user-agent': 'x', ...headers },
    auth,
    params: {},
    query: {},
    ...(body ? { body } : {}),
  });
  const basic = (user: string, password: string): string =>
    `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it("names the run's credentials by their variables and shows a probe's own ones as sent", () => {
    expect(
      curlCommand('alerts', request({ authorization: 'Bearer real-token-1' }, 'default'), { credentials, redact }),
    ).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:1/api/v2/alerts' -H "Authorization: Bearer $ALERTS_TOKEN" -H ` +
        `'accept: application/json'`,
    );
    expect(
      curlCommand('alerts', request({ authorization: 'Bearer wrong-abc' }, 'custom'), { credentials, redact }),
    ).toContain(`-H 'authorization: Bearer wrong-abc'`);
    expect(
      curlCommand('alerts', request({ authorization: basic('kid-1', 'wrong-"$x') }, 'custom'), { credentials, redact }),
    ).toContain('-u "$MANAGEMENT_KEY_ID:wrong-\\"\\$x"');
    expect(
      curlCommand('management', request({ authorization: basic('other', 'real-secret-1') }, 'custom'), {
        credentials,
        redact,
      }),
    ).toContain('-u "other:$MANAGEMENT_KEY_SECRET"');
    expect(
      curlCommand('management', request({ authorization: 'Bearer real-token-1' }, 'custom'), { credentials, redact }),
    ).toContain('"Authorization: Bearer $ALERTS_TOKEN"');
  });

  it(
    'writes each form of a wrong secret made from a real one from its variable: the same bytes, no ' + 'secret',
    async () => {
      const env = { PATH: '/usr/bin:/bin', MANAGEMENT_KEY_ID: 'kid-1', MANAGEMENT_KEY_SECRET: 'real-secret-1' };
      const forms = [
        basic('kid-1', ''),
        basic('kid-1', 'REAL-SECRET-1'),
        basic('kid-1', 'real-secret-'),
        basic('kid-1', 'real-secret-1A'),
        basic('kid-1', ' real-secret-1'),
        basic('kid-1', 'real-secret-1 '),
        `Basic ${Buffer.from('kid-1').toString('base64')}`,
        'Bearer REAL-TOKEN-1',
        'Bearer real-token-',
        'Bearer real-token-1A',
      ];
      for (const authorization of forms) {
        const api = authorization.startsWith('Bearer') ? 'alerts' : 'management';
        const curl = curlCommand(api, request({ authorization }, 'custom'), { credentials, redact });
        for (const secret of ['real-secret', 'REAL-SECRET', 'real-token', 'REAL-TOKEN'])
          expect(curl).not.toContain(secret);
        // The shell expands the command's words: a stand-in for curl prints them, -u made into the header curl sends.
        const { stdout } = await run(
          '/bin/sh',
          ['-c', `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }; ${curl}`],
          { env: { ...env, ALERTS_TOKEN: 'real-token-1' } },
        );
        const words = stdout.split('\n');
        const user = words[words.indexOf('-u') + 1];
        const sent = words.includes('-u')
          ? `Basic ${Buffer.from(user!).toString('base64')}`
          : words.find((w) => /^authorization: /i.test(w))?.replace(/^authorization: /i, '');
        expect(sent, curl).toBe(authorization);
      }
    },
  );

  it("names another tenant's credentials by their OTHER_* variables", () => {
    const others = { management: { user: 'other-kid', password: 'other-secret' }, alerts: { token: 'other-token' } };
    const options = { credentials, others, redact };
    expect(
      curlCommand('management', request({ authorization: basic('other-kid', 'other-secret') }, 'custom'), options),
    ).toContain('-u "$OTHER_MANAGEMENT_KEY_ID:$OTHER_MANAGEMENT_KEY_SECRET"');
    expect(curlCommand('alerts', request({ authorization: 'Bearer other-token' }, 'custom'), options)).toContain(
      '-H "Authorization: Bearer $OTHER_ALERTS_TOKEN"',
    );
  });

  it('masks other real secrets and keeps generated values as sent', () => {
    const curl = curlCommand(
      'management',
      request(
        { authorization: basic('kid-1', 'real-secret-1'), 'content-type': 'application/json' },
        'default',
        `{"k":"returned-key-secret","p":"sv_generated","q":"it's"}`,
      ),
      { credentials, redact },
    );
    expect(curl).toContain(`--data-raw '{"k":"[redacted]","p":"sv_generated","q":"it'\\''s"}'`);
    expect(curl).not.toMatch(/kid-1|real-secret-1/);
  });

  it('asks curl to decode an answer that came compressed, still sending no Accept-Encoding, and only then', () => {
    const sent = request({ authorization: 'Bearer real-token-1' }, 'default');
    expect(curlCommand('alerts', sent, { credentials, redact, compressed: true })).toMatch(
      / --compressed -H 'Accept-Encoding:'$/,
    );
    expect(curlCommand('alerts', sent, { credentials, redact })).not.toContain('--compressed');
  });
});
