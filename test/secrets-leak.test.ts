import type { Server } from 'node:http';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_VALUE_PATTERN } from '../generators/secretValue.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { runCli, type CliResult } from './support/cli.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';
import { targetEnv } from './support/target-env.ts';

/** Faults that echo secrets: a generated one in a header, generated ones in the body. */
const FAULTS = ['secret-in-header', 'broker-credentials-echoed', 'relational-password-as-note'];
/** Every secret value the generators produce (generators/secretValue.ts). */
const GENERATED_SECRET = new RegExp(SECRET_VALUE_PATTERN.source.slice(1, -1), 'g');

function valuesNamed(json: unknown, name: string): string[] {
  if (Array.isArray(json)) return json.flatMap((item) => valuesNamed(item, name));
  if (json && typeof json === 'object') {
    return Object.entries(json).flatMap(([k, v]) => (k === name && typeof v === 'string' ? [v] : valuesNamed(v, name)));
  }
  return [];
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('no secret in anything a run writes or prints', () => {
  const wire: WireExchange[] = [];
  let reference: ReferenceTarget;
  let proxies: Server[];
  let dir: string;
  let run: CliResult;

  beforeAll(async () => {
    reference = await startReference({ faults: FAULTS });
    const management = await recordingProxy(reference.managementUrl, wire);
    const alerts = await recordingProxy(reference.alertsUrl, wire);
    proxies = [management.server, alerts.server];
    dir = await mkdtemp(join(tmpdir(), 'secrets-leak-'));
    await writeFile(join(dir, 'step-summary.md'), '');
    run = await runCli(
      ['--report-dir', join(dir, 'out'), '--baseline', join(dir, 'out', 'baseline.json'), '--update-baseline'],
      {
        ...targetEnv(reference, { management: management.url, alerts: alerts.url }),
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'),
      },
    );
  }, 180_000);

  afterAll(async () => {
    for (const server of proxies ?? []) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await reference?.close();
  });

  it('ran, and the target did echo secrets', async () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0); // --update-baseline accepts the failures it writes
    const findings = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
    expect(
      findings.results.filter(
        (r: { rule: string; outcome: string }) => r.rule === 'secrets.absent' && r.outcome === 'failed',
      ).length,
    ).toBeGreaterThan(0);
    const generated = new RegExp(GENERATED_SECRET.source);
    expect(
      wire.some(
        (e) => typeof e.headers['x-source-secret'] === 'string' && generated.test(e.headers['x-source-secret']),
      ),
    ).toBe(true);
    expect(wire.some((e) => generated.test(e.responseBody))).toBe(true);
    expect(run.stdout).toMatch(/^::warning file=openapi\/management\.yaml,line=\d+,col=\d+,title=secrets\.absent::/m);
  });

  it(
    'finds none of the credentials or returned key secrets in files, step summary or output, and generated ' +
      'secrets only in curl commands',
    async () => {
      const generated = new Set(wire.flatMap((e) => [...e.requestBody.matchAll(GENERATED_SECRET)].map((m) => m[0])));
      const keySecrets = new Set(wire.flatMap((e) => valuesNamed(parse(e.responseBody), 'keySecret')));
      const echoedHeaders = new Set(
        wire.flatMap((e) => (typeof e.headers['x-source-secret'] === 'string' ? [e.headers['x-source-secret']] : [])),
      );
      expect(generated.size).toBeGreaterThan(10);
      expect(keySecrets.size).toBeGreaterThan(0);
      // Real secrets appear nowhere; values the harness generated only in the curl that sends them again.
      const secrets = new Map<string, string>([
        ['MANAGEMENT_KEY_SECRET', reference.managementKeySecret],
        [
          'MANAGEMENT Basic credentials',
          Buffer.from(`${reference.managementKeyId}:${reference.managementKeySecret}`).toString('base64'),
        ],
        ['ALERTS_TOKEN', reference.alertsToken],
        ...[...keySecrets].map((s) => ['returned keySecret', s] as [string, string]),
      ]);
      const generatedOnes = new Set([...generated, ...echoedHeaders]);
      expect([...echoedHeaders].every((s) => new RegExp(GENERATED_SECRET.source).test(s))).toBe(true);

      const outputs = new Map<string, string>([
        ['stdout', run.stdout],
        ['stderr', run.stderr],
      ]);
      const files = await filesUnder(dir);
      expect(files.map((f) => f.slice(dir.length))).toEqual(
        expect.arrayContaining([
          '/step-summary.md',
          '/out/findings.json',
          '/out/junit.xml',
          '/out/report.html',
          '/out/summary.md',
          '/out/results.sarif',
          '/out/baseline.json',
        ]),
      );
      for (const file of files) outputs.set(file.slice(dir.length), await readFile(file, 'utf8'));

      const leaks: string[] = [];
      let inCurls = 0;
      for (const [where, text] of outputs) {
        for (const [what, secret] of secrets) if (text.includes(secret)) leaks.push(`${what} in ${where}`);
        for (const line of text.split('\n')) {
          for (const match of line.matchAll(GENERATED_SECRET)) {
            if (!generatedOnes.has(match[0]))
              leaks.push(`a secret-shaped value the run did not send (${match[0].slice(0, 5)}…) in ${where}`);
            else if (line.lastIndexOf('curl -sS -i -X ', match.index) < 0)
              leaks.push(`a generated secret (${match[0].slice(0, 5)}…) outside a curl command in ${where}`);
            else inCurls += 1;
          }
        }
      }
      expect(leaks).toEqual([]);
      expect(inCurls).toBeGreaterThan(0);
      expect(outputs.get('/out/findings.json')).toContain('[redacted]');
    },
  );
});
