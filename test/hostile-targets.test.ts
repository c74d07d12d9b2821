import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../run/run-report-types.ts';
import { runCli } from './support/cli.ts';
import { startHostile, type HostileKind, type HostileServer } from './support/hostile-servers.ts';
import { failedRules, runInProcess } from './support/in-process.ts';

const SECRET = `hostile-secret-${randomUUID()}`;
const TOKEN = `hostile-token-${randomUUID()}`;

/** Short runs: a small timeout and few examples, so that a target that never answers costs seconds. */
const FLAGS = [
  '--timeout-ms',
  '800',
  '--runs',
  '2',
  '--budget-ms',
  '60000',
  '--max-response-bytes',
  '65536',
  '--seed',
  '20261121',
  '--allow',
  'read,write,disruptive',
];

/** A run must end; this bound only catches a run that does not, it is no performance target. */
const WALL_BOUND_MS = 120_000;

/**
 * Rules a 200 fails when the probe was built to be rejected. (`alerts.enums` is not among them: its probes
 * need a real alert from the list, and a garbage list names none, so that rule is skipped.)
 */
const REJECTION_RULES = [
  'access.path-scoped',
  'auth.required',
  'keys.roles-enum',
  'keys.roles-minimum',
  'pipes.field-mappings-cover-columns',
  'service.command',
  'usage.period-limit',
  'usage.required-params',
];

function targetEnv(server: HostileServer): Record<string, string> {
  return {
    MANAGEMENT_BASE_URL: server.url,
    ALERTS_BASE_URL: server.url,
    MANAGEMENT_KEY_ID: 'hostile-key-id',
    MANAGEMENT_KEY_SECRET: SECRET,
    ORGANIZATION_ID: randomUUID(),
    SERVICE_ID: randomUUID(),
    BACKUP_ID: randomUUID(),
    ALERTS_TOKEN: TOKEN,
  };
}

/** Every violation's `actual` of the failed results of one rule. */
function actuals(report: RunReport, rule: string): string[] {
  return report.results
    .filter((r) => r.rule === rule && r.outcome === 'failed')
    .flatMap((r) => r.findings.map((f) => String(f.actual)));
}

describe('hostile targets: a target that answers badly is a failing target, and the run still ends', () => {
  let server: HostileServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function runAgainst(kind: HostileKind) {
    server = await startHostile(kind);
    const started = performance.now();
    const run = await runInProcess(FLAGS, targetEnv(server));
    const wallMs = Math.round(performance.now() - started);
    console.log(
      `hostile target ${kind}: run ended in ${wallMs} ms, exit ${run.code}, ${run.report.stats.requests} ` +
        `requests, ${server.requests()} seen by the target`,
    );
    expect(wallMs).toBeLessThan(WALL_BOUND_MS);
    expect(run.report.errors).toEqual([]);
    expect(run.code).toBe(1);
    const written = await readFile(join(run.reportDir, 'findings.json'), 'utf8');
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(TOKEN);
    return run;
  }

  it(
    'never answers: every operation fails transport.answers with a timeout',
    async () => {
      const run = await runAgainst('hang');
      expect(failedRules(run.report)).toEqual(['transport.answers']);
      expect(actuals(run.report, 'transport.answers').every((a) => a.startsWith('timeout: '))).toBe(true);
    },
    WALL_BOUND_MS + 30_000,
  );

  it(
    'resets every connection: every operation fails transport.answers with a connection failure',
    async () => {
      const run = await runAgainst('reset');
      expect(failedRules(run.report)).toEqual(['transport.answers']);
      expect(actuals(run.report, 'transport.answers').every((a) => a.startsWith('connection: '))).toBe(true);
    },
    WALL_BOUND_MS + 30_000,
  );

  it(
    'answers `}{not json` with a 200 and a JSON Content-Type: the response rules fail, and every rejection rule',
    async () => {
      const run = await runAgainst('garbage');
      expect(failedRules(run.report)).toEqual(
        ['alerts.envelope', 'envelope.shape', 'response.content-type', ...REJECTION_RULES].sort(),
      );
      expect(actuals(run.report, 'response.content-type').some((a) => a.endsWith(': }{not json'))).toBe(true);
      const transport = run.report.results.filter((r) => r.rule === 'transport.answers');
      expect(transport.filter((r) => r.outcome === 'failed')).toEqual([]);
      // Operations sent nothing where no resource was known to exist (no alert could be read from the garbage list).
      expect(transport.filter((r) => r.outcome === 'skipped').map((r) => r.operation)).toEqual([
        'PUT /api/v2/alerts/{id}',
      ]);
      expect(run.report.results.find((r) => r.rule === 'alerts.enums')?.outcome).toBe('skipped');
    },
    WALL_BOUND_MS + 30_000,
  );

  it(
    'sends an endless body: the binary stops reading at --max-response-bytes, fails transport.answers, and ' +
      'the target stops writing',
    async () => {
      server = await startHostile('endless');
      const reportDir = await mkdtemp(join(tmpdir(), 'conformance-endless-'));
      const started = performance.now();
      const result = await runCli([...FLAGS, '--report-dir', reportDir], targetEnv(server), WALL_BOUND_MS);
      const wallMs = Math.round(performance.now() - started);
      console.log(
        `hostile target endless: binary ended in ${wallMs} ms, exit ${result.code}, target wrote ` +
          `${server.bytesWritten()} bytes`,
      );
      // Nothing but the warning that the service's `start` got no answer, so it may be left stopped.
      expect(result.stderr).toMatch(/^(conformance: WARNING: [^\n]*\n)+$/);
      expect(result.stderr).toMatch(
        new RegExp(
          String.raw`^conformance: WARNING: The service \S+ was sent stop, then start ` +
            String.raw`\([^\n]*start got too-large\): it may be left stopped`,
          'm',
        ),
      );
      expect(result.code).toBe(1);
      const report = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as RunReport;
      expect(report.errors).toEqual([]);
      expect(failedRules(report)).toEqual(['transport.answers']);
      expect(
        actuals(report, 'transport.answers').every(
          (a) => a === 'too-large: response body exceeded 65536 bytes (--max-response-bytes)',
        ),
      ).toBe(true);
      const written = server.bytesWritten();
      await sleep(300);
      expect(server.bytesWritten()).toBe(written);
    },
    WALL_BOUND_MS + 30_000,
  );
});
