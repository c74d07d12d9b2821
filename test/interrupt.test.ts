import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STOPPED_BEFORE_ANY_VERDICT } from '../cli/interrupts.ts';
import { operationsOf } from '../rule-model/rule.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { loadSpecs } from '../spec/spec.ts';
import { RULES } from '../rules/index.ts';
import { runCli } from './support/cli.ts';
import { targetEnv } from './support/target-env.ts';
import { listening, passOn } from './support/proxy.ts';
import { startedInEachTest } from './support/started-in-each-test.ts';

/** One request as the target saw it, and when. */
interface Arrival {
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

/**
 * A proxy in front of one API of the reference target that signals the run when it receives the service's `stop`,
 * then holds every answer for `holdMs` (so that no request slot frees while the signal travels), answers a
 * `start` received after the signal with `startStatus` when given, and the `stop` with a 429 that asks to retry after
 * `stopRetryAfter` seconds when given (the target does not stop).
 */
interface Trap {
  readonly arrivals: Arrival[];
  /** Answers the target gave, with when they were passed on. */
  readonly answers: Array<Arrival & { readonly status: number; readonly answeredAt: number }>;
  signalledAt?: number;
  child?: ChildProcess;
  holdUntil: number;
}

/** What a run stopped at once says of the verdicts it did not reach, once vitest has declared them. */
const NOT_REACHED = String.raw`the run was stopped at once: \d+ verdict\(s\) were not reached`;

/** When to signal: the service's `stop` arrives. */
const AT_STOP = (arrival: Arrival): boolean =>
  arrival.method === 'PATCH' && arrival.path.endsWith('/state') && arrival.body === '{"command":"stop"}';

/** When to signal: the fourth pipe create arrives (with one request at a time, the first three were answered). */
const AT_FOURTH_PIPE = (arrival: Arrival, arrivals: readonly Arrival[]): boolean =>
  arrival.method === 'POST' &&
  arrival.path.endsWith('/pipes') &&
  arrivals.filter((a) => a.method === 'POST' && a.path.endsWith('/pipes')).length === 4;

interface TrapOptions {
  readonly signals: NodeJS.Signals[];
  readonly holdMs: number;
  readonly startStatus?: number;
  readonly stopRetryAfter?: number;
  readonly when: (arrival: Arrival, arrivals: readonly Arrival[]) => boolean;
}

async function trapProxy(upstream: string, trap: Trap, options: TrapOptions): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const arrival = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', body };
      trap.arrivals.push(arrival);
      if (trap.signalledAt === undefined && options.when(arrival, trap.arrivals)) {
        trap.signalledAt = Date.now();
        trap.holdUntil = trap.signalledAt + options.holdMs;
        const [first, ...later] = options.signals;
        trap.child!.kill(first);
        for (const [i, signal] of later.entries()) setTimeout(() => trap.child!.kill(signal), 300 * (i + 1));
      }
      const answer = (): void => {
        if (options.stopRetryAfter !== undefined && body === '{"command":"stop"}') {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(options.stopRetryAfter) });
          res.end('{"status":429,"error":"too many requests"}');
          return;
        }
        if (options.startStatus && trap.signalledAt !== undefined && body === '{"command":"start"}') {
          res.writeHead(options.startStatus, { 'content-type': 'application/json' });
          res.end('{"status":503,"error":"unavailable"}');
          return;
        }
        passOn(target, req, res, {
          body,
          answered: (status) => trap.answers.push({ ...arrival, status, answeredAt: Date.now() }),
        });
      };
      setTimeout(answer, Math.max(0, trap.holdUntil - Date.now()));
    });
  });
  return listening(server);
}

describe('an interrupted run', () => {
  const opened = startedInEachTest();

  async function interruptRun(options: TrapOptions) {
    const reference = await opened.reference();
    const trap: Trap = { arrivals: [], answers: [], holdUntil: 0 };
    const management = opened.server(await trapProxy(reference.managementUrl, trap, options));
    const alerts = opened.server(await trapProxy(reference.alertsUrl, trap, options));
    const dir = await mkdtemp(join(tmpdir(), 'interrupt-'));
    const started = Date.now();
    const run = await runCli(
      ['--runs', '1', '--concurrency', '1', '--seed', '9', '--allow', 'read,write,disruptive', '--report-dir', dir],
      {
        ...targetEnv(reference, { management: management.url, alerts: alerts.url }),
      },
      120_000,
      (child) => {
        trap.child = child;
      },
    );
    // A run that wrote no report fails with what it printed, not only the missing file.
    const findings = await readFile(join(dir, 'findings.json'), 'utf8').catch((error: Error) => {
      throw new Error(`${error.message}\nexit ${run.code}; stderr:\n${run.stderr}\nstdout:\n${run.stdout}`);
    });
    const report = JSON.parse(findings) as RunReport;
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    const after = trap.arrivals
      .filter((a) => a.at > trap.signalledAt!)
      .map((a) => `${a.method} ${a.path.replace(/^.*\/services\/[^/]+/, '…')} ${a.body}`);
    return { run, report, junit, after, trap, dir, elapsedAfterSignal: Date.now() - trap.signalledAt!, started };
  }

  it('SIGINT: sends nothing new but the service start, reaches every verdict, writes every report, warns, ' +
    'exits 130', async () => {
    const { run, report, junit, after, trap, dir } = await interruptRun({
      signals: ['SIGINT'],
      holdMs: 700,
      startStatus: 503,
      when: AT_STOP,
    });
    expect(trap.signalledAt).toBeDefined();
    expect(run.code).toBe(130);
    expect(after).toEqual(['PATCH …/state {"command":"start"}']);
    expect(report.interrupted).toBe('SIGINT');
    // Interrupted wherever the run reports, never passed: a cancelled CI job must not read green.
    expect(report.outcome).toBe('interrupted');
    expect(run.stdout).toMatch(/^INTERRUPTED by SIGINT, before the run finished: \d+ failed, \d+ passed/m);
    expect(run.stdout).not.toMatch(/^PASSED/m);
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toMatch(
      /^## Conformance: ⏹️ INTERRUPTED by SIGINT, before the run finished$/m,
    );
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain(
      '<span class="verdict interrupted" id="verdict">INTERRUPTED by SIGINT, before the run finished</span>',
    );
    const sarif = JSON.parse(await readFile(join(dir, 'results.sarif'), 'utf8'));
    expect(sarif.runs[0].invocations[0]).toMatchObject({ executionSuccessful: false, exitSignalName: 'SIGINT' });
    const { operations } = await loadSpecs();
    expect(report.results.length).toBe(RULES.reduce((sum, rule) => sum + operationsOf(rule, operations).length, 0));
    expect(
      report.results.filter((r) => r.outcome === 'skipped' && r.message.includes('the run was interrupted')).length,
    ).toBeGreaterThan(0);
    expect(
      report.results.filter((r) => r.message.includes('reached --max-requests') || r.message.includes('(budget)')),
    ).toEqual([]);
    expect(report.incidents.join('\n')).toMatch(/start got 503/);
    // Every verdict, and the interrupt as an error case of its own, so that CI does not read the run as clean.
    expect(junit).toMatch(
      new RegExp(`<testsuites[^>]*tests="${report.results.length + 1}" failures="\\d+" errors="1"`),
    );
    expect(junit).toContain('<testcase classname="conformance.harness" name="interrupted">');
    for (const file of ['report.html', 'summary.md']) expect((await stat(join(dir, file))).size).toBeGreaterThan(0);
    expect(run.stderr).toMatch(/^conformance: SIGINT received: no new requests/m);
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`^conformance: WARNING: The service \S+ was sent stop, then start ` +
          String.raw`\(stop got 200, start got 503\): it may be left stopped`,
        'm',
      ),
    );
    expect(run.stderr).not.toMatch(/Error|at .*\.ts:\d+/);
  }, 150_000);

  it('SIGINT while the service stop waits out a 429: the stop never took effect, so no start is sent and no ' +
    'incident raised', async () => {
    const { run, report, after, trap } = await interruptRun({
      signals: ['SIGINT'],
      holdMs: 300,
      stopRetryAfter: 2,
      when: AT_STOP,
    });
    expect(trap.signalledAt).toBeDefined();
    expect(run.code).toBe(130);
    expect(after).toEqual([]);
    expect(trap.arrivals.filter((a) => a.path.endsWith('/state') && a.body === '{"command":"start"}')).toEqual([]);
    expect(report.interrupted).toBe('SIGINT');
    expect(report.outcome).toBe('interrupted');
    expect(report.incidents).toEqual([]);
    expect(run.stderr).not.toMatch(/may be left stopped/);
  }, 150_000);

  it('a second SIGTERM ends at once, with exit 143, the ' +
    'verdicts reached so far, what was created, and a ' +
    'warning', async () => {
    const { run, report, junit, elapsedAfterSignal, trap } = await interruptRun({
      signals: ['SIGTERM', 'SIGTERM'],
      holdMs: 30_000,
      when: AT_FOURTH_PIPE,
    });
    expect(run.code).toBe(143);
    const pipesCreated = trap.answers.filter(
      (a) => a.method === 'POST' && a.path.endsWith('/pipes') && a.status === 200 && a.answeredAt < trap.signalledAt!,
    );
    expect(pipesCreated.length).toBeGreaterThan(0);
    expect(report.created.filter((c) => c.operation === 'createPipe').length).toBe(pipesCreated.length);
    expect(elapsedAfterSignal).toBeLessThan(15_000);
    expect(report.interrupted).toBe('SIGTERM');
    expect(report.outcome).toBe('interrupted');
    // Which suites ran before the service's depends on vitest's file order: the report holds those verdicts, and counts
    // the rest; a run stopped before vitest had declared its tests (the worker's requests go out first) has reached no
    // verdict, and says so.
    const stopped = report.results.length > 0 ? NOT_REACHED : `(${NOT_REACHED}|${STOPPED_BEFORE_ANY_VERDICT})`;
    expect(report.errors.join('\n')).toMatch(new RegExp(`^${stopped}$`, 'm'));
    expect(report.results.every((r) => ['passed', 'failed', 'skipped'].includes(r.outcome))).toBe(true);
    expect(junit).toMatch(new RegExp(`<error message="${stopped}" type="HarnessError"/>`));
    expect(junit.match(/<testcase /g)?.length).toBe(report.results.length + 2);
    expect(run.stderr).toMatch(/^conformance: SIGTERM again: stopping at once\./m);
    expect(run.stderr).toMatch(
      /^conformance: WARNING: the run was stopped at once: service \S+ may have been sent `stop` and not `start`/m,
    );
  }, 150_000);
});
