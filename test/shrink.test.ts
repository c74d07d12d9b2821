import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { differences, sharedValues } from '../evidence/difference.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Finding } from '../evidence/finding.ts';
import { createLedger, type Ledger } from '../evidence/ledger.ts';
import type { MinimalExample } from '../evidence/minimal-example.ts';
import type { Probe } from '../core/probe-types.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { loadSpecs } from '../spec/spec.ts';
import { alertUpdateBody } from '../generators/alertUpdateBody.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { RULE_IDS, RULES } from '../rules/index.ts';
import { accept } from '../engine/probe.ts';
import { recordExchange } from '../engine/record.ts';
import { createSession } from '../engine/session.ts';
import { createShrinker, type PropertyShrink } from '../engine/shrink.ts';
import type { JudgedExchange } from '../engine/suite-types.ts';
import { runInProcess } from './support/in-process.ts';
import { recordingProxy, type WireExchange } from './support/recording-proxy.ts';

const FAULT = 'alerts-threshold-below-rejected';
const UPDATE = 'PUT /api/v2/alerts/{id}';
/** Alerts-only runs (management not under test), so that every request of the run crosses the recording proxy. */
const ARGS = ['--runs', '4', '--seed', '20261121', '--timeout-ms', '1500'];

/**
 * Adds a property's exchanges to its shrink, as the run does when each comes back (the value drawn is the body sent),
 * then shrinks.
 */
async function shrinkAll(shrink: PropertyShrink<unknown>, sent: readonly JudgedExchange[]): Promise<void> {
  for (const exchange of sent) shrink.add(exchange, exchange.request.json);
  await shrink.shrink();
}

/** The minimal examples a run's findings carry. */
function minimals(report: RunReport): MinimalExample[] {
  return report.results.flatMap((r) => r.findings).flatMap((f) => (f.minimal ? [f.minimal] : []));
}

/** What the HAR of a run says of one exchange: its request, and whether it was a shrink candidate, of which example. */
interface HarSeen {
  readonly request: { readonly method: string };
  readonly _shrink?: { readonly property: string };
  readonly _example?: { readonly property: string };
}

/**
 * Starts a reference target (with `faults`) behind a recording proxy on its alerts API; runs the command against that
 * proxy, with `--har`.
 */
async function alertsRun(
  faults: readonly string[],
  extra: readonly string[] = [],
): Promise<{ run: Awaited<ReturnType<typeof runInProcess>>; wire: WireExchange[]; har: HarSeen[] }> {
  const target = await startReference({ faults });
  const wire: WireExchange[] = [];
  const proxy = await recordingProxy(target.alertsUrl, wire);
  const folder = await mkdtemp(join(tmpdir(), 'conformance-shrink-har-'));
  try {
    const run = await runInProcess([...ARGS, '--alerts-url', proxy.url, '--har', join(folder, 'run.har'), ...extra], {
      ALERTS_TOKEN: target.alertsToken,
    });
    const har = JSON.parse(await readFile(join(folder, 'run.har'), 'utf8')) as { log: { entries: HarSeen[] } };
    return { run, wire, har: har.log.entries };
  } finally {
    await new Promise((resolve) => proxy.server.close(resolve));
    await target.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** The run's plan total and the put-backs it keeps beyond it, from `--dry-run`. */
async function plannedTotal(): Promise<{ total: number; kept: number }> {
  const dry = await runInProcessDry();
  const total = /Total: (\d+) request/.exec(dry)?.[1];
  if (total === undefined) throw new Error(`no total in the dry run:\n${dry}`);
  return { total: Number(total), kept: Number(/Kept for put-backs: (\d+) request/.exec(dry)?.[1] ?? 0) };
}

async function runInProcessDry(): Promise<string> {
  const target = await startReference();
  try {
    const { main } = await import('../cli/main.ts');
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    await main([...ARGS, '--alerts-url', target.alertsUrl, '--dry-run'], { ALERTS_TOKEN: target.alertsToken }, io);
    return lines.join('\n');
  } finally {
    await target.close();
  }
}

describe('differences and shared values', () => {
  it('names the leaves two bodies differ in, and the values every failing body has and no passing one', () => {
    expect(differences({ a: 1, s: 'search', c: { t: 'w' } }, { a: 1, s: 'tile', c: { t: 'w' }, extra: true })).toEqual([
      { path: '/s', failing: 'search', passing: 'tile' },
      { path: '/extra', passing: true },
    ]);
    const failing = [
      { s: 'search', n: 1, k: 'x' },
      { s: 'search', n: 2, k: 'x' },
    ];
    const passing = [{ s: 'tile', n: 1, k: 'x' }];
    expect(sharedValues(failing, passing)).toEqual([{ path: '/s', value: 'search' }]);
    expect(sharedValues([], passing)).toEqual([]);
  });

  it("fast-check replays an example of fc.sample from its seed and index (the shrinker's starting point)", async () => {
    const arbitrary = alertUpdateBody({
      interval: '5m',
      references: [{ dashboardId: 'd'.repeat(24), tileId: 't', webhookId: 'w'.repeat(24) }],
    });
    const sampled = fc.sample(arbitrary, { seed: 99, numRuns: 6 });
    const seen: unknown[] = [];
    await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        seen.push(value);
        return true;
      }),
      { seed: 99, path: '4', numRuns: 1 },
    );
    expect(seen).toEqual([sampled[4]]);
  });
});

describe(`shrinking against the target (${FAULT})`, () => {
  let faulty: Awaited<ReturnType<typeof alertsRun>>;
  let clean: Awaited<ReturnType<typeof alertsRun>>;
  beforeAll(async () => {
    faulty = await alertsRun([FAULT]);
    clean = await alertsRun([]);
  }, 60_000);

  it(
    'reports the minimal example, the nearest accepted body, the field that makes the difference and the ' +
      'value the rejections share',
    async () => {
      const { report, output, code } = faulty.run;
      expect(code).toBe(1);
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.rule} on ${r.operationId}`)).toEqual([
        'request.valid-accepted on updateAlert',
      ]);
      const [minimal, ...others] = minimals(report);
      expect(others).toEqual([]);
      expect(minimal).toMatchObject({
        outcome: 'shrunk',
        complete: true,
        confirmed: true,
        // The threshold stays one the listed alerts carry (its bounds are not shown): no shrink goes below them.
        failing: { status: 400, body: { thresholdType: 'below', threshold: expect.toBeOneOf([100, 10, 5, 1]) } },
        passing: { status: 200, body: { thresholdType: 'above' } },
      });
      expect(minimal?.difference).toEqual([{ path: '/thresholdType', failing: 'below', passing: 'above' }]);
      expect(minimal?.shared).toEqual([{ path: '/thresholdType', value: 'below' }]);
      expect(minimal?.failing?.curl).toMatch(/^curl .*"thresholdType":"below"/);
      expect(minimal?.replay).toMatchObject({
        property: 'alerts/alert update',
        path: expect.stringMatching(/^\d+(:\d+)+$/),
      });
      const text = output.replace(/\s+/g, ' ');
      expect(text).toContain(
        'rejected (HTTP 400) when `thresholdType: "below"`; the same body with `thresholdType: "above"` is accepted ' +
          '(HTTP 200)',
      );
      expect(text).toContain('in common: every rejected body');
      // The folded cause in report.html shows the difference; summary.md lists it under the cause.
      const html = await readFile(join(faulty.run.reportDir, 'report.html'), 'utf8');
      expect(html).toContain(
        '<span class="line">rejected (HTTP 400) when <code>thresholdType: &quot;below&quot;</code>; the same body ' +
          'with <code>thresholdType: &quot;above&quot;</code> is accepted (HTTP 200)</span>',
      );
      expect(html).toContain('<h3>Minimal example</h3>');
      const markdown = await readFile(join(faulty.run.reportDir, 'summary.md'), 'utf8');
      expect(markdown).toContain(
        '  - rejected (HTTP 400) when \\`thresholdType: "below"\\`; the same body with ' +
          '\\`thresholdType: "above"\\` is ' +
          'accepted (HTTP 200)',
      );
    },
  );

  it(
    'sends every shrink request through the run: counted by its probe, ' +
      'recorded, and each accepted one listed under created',
    () => {
      const minimal = minimals(faulty.run.report)[0]!;
      expect(minimal.requests).toBeGreaterThan(0);
      expect(minimal.requests).toBeLessThanOrEqual(DEFAULTS.shrinkRequestsPerCause);
      const puts = (wire: WireExchange[]): WireExchange[] => wire.filter((w) => w.method === 'PUT');
      const property = minimal.replay?.property;
      // The same seed against a correct target sends the same examples and no shrink request.
      expect(minimals(clean.run.report)).toEqual([]);
      expect(clean.har.filter((e) => e._shrink)).toEqual([]);
      // Counted by their probe: the property's shrink candidates are exactly the requests its minimal example reports,
      // and apart from them the faulty run sent the property's examples as the clean one did.
      expect(faulty.har.filter((e) => e._shrink?.property === property)).toHaveLength(minimal.requests);
      const examples = (har: HarSeen[]): HarSeen[] => har.filter((e) => e._example?.property === property);
      expect(examples(faulty.har)).toHaveLength(examples(clean.har).length);
      // Every shrink candidate of the run is one a finding counts: the minimal example's, or a shorter sequence's.
      const sequenceRequests = faulty.run.report.results
        .flatMap((r) => r.findings)
        .reduce((n, f) => n + (f.sequence?.requests ?? 0), 0);
      expect(faulty.har.filter((e) => e._shrink)).toHaveLength(minimal.requests + sequenceRequests);
      // And every exchange the HAR holds crossed the wire.
      for (const run of [faulty, clean])
        expect(run.har.filter((e) => e.request.method === 'PUT')).toHaveLength(puts(run.wire).length);
      const { stats, created } = faulty.run.report;
      // The operation counts every request to its path: the PUTs, and the methods the path does not list (405).
      const onUpdatePath = faulty.wire.filter((w) => /^\/api\/v2\/alerts\/[^/?]+/.test(w.path));
      const unlisted = onUpdatePath.filter((w) => w.method !== 'PUT');
      expect(unlisted.filter((w) => w.status !== 405)).toEqual([]);
      expect(stats.operations[UPDATE]?.requests).toBe(onUpdatePath.length);
      expect(stats.requests).toBe(Object.values(stats.operations).reduce((n, o) => n + o.requests, 0));
      const accepted = puts(faulty.wire).filter((w) => w.status === 200).length;
      const listed = created.filter((c) => c.operation === 'updateAlert').reduce((n, c) => n + (c.times ?? 1), 0);
      expect(listed).toBe(accepted);
    },
  );

  it('names no field when the failure hangs on the ' +
    "target's state: sent again, the pair fares " +
    'differently', async () => {
    // alerts-dashboard-ignored answers with the dashboard the alert had: whether an update fails depends on the one
    // before it.
    const { run } = await alertsRun(['alerts-dashboard-ignored']);
    const shrunk = minimals(run.report).filter((m) => m.outcome === 'shrunk');
    expect(shrunk.length).toBeGreaterThan(0);
    for (const minimal of shrunk) expect(minimal.confirmed).toBe(false);
    const text = run.output.replace(/\s+/g, ' ');
    expect(text).toContain("the failure depends on the target's state as well as on the request, so no field is named");
    expect(text).not.toMatch(/accepted but failing \(HTTP 200\) when/);
  }, 30_000);

  it('spends only what --max-requests leaves beyond the ' +
    'plan, and skips with the reason when nothing is left', async () => {
    // The alerts API is a target of its own here, so the preflight's one GET counts against --max-requests too.
    const { total, kept } = await plannedTotal();
    const planned = total + 1;
    const spare = await alertsRun([FAULT], ['--max-requests', String(planned + kept + 3)]);
    const [cut] = minimals(spare.run.report);
    expect(cut).toMatchObject({ outcome: 'shrunk', complete: false, requests: 3 });
    expect(cut?.reason).toContain(
      `--max-requests ${planned + kept + 3} leaves 3 request(s) beyond the ${planned} the plan needs and the ${kept} ` +
        'kept for put-backs',
    );
    expect(spare.run.report.stats.requests).toBeLessThanOrEqual(planned + 3 - 1);
    // Shrinking took nothing the plan needed: every verdict is the unbounded run's.
    const outcomes = (report: RunReport): string[] =>
      report.results.map((r) => `${r.rule} ${r.operation} ${r.outcome}`);
    expect(outcomes(spare.run.report)).toEqual(outcomes(faulty.run.report));

    const none = await alertsRun([FAULT], ['--max-requests', String(planned + kept)]);
    // No request to spare: the examples alone still name the value the rejections share.
    expect(minimals(none.run.report)).toEqual([
      expect.objectContaining({
        outcome: 'skipped',
        requests: 0,
        reason: expect.stringMatching(/leaves 0 request\(s\)/),
        shared: [{ path: '/thresholdType', value: 'below' }],
      }),
    ]);
    expect(none.run.report.stats.requests).toBeLessThanOrEqual(planned - 1);
    expect(none.run.output.replace(/\s+/g, ' ')).toContain('not shrunk: --max-requests');
  }, 60_000);
});

describe('the shrink budget', () => {
  let target: ReferenceTarget;
  beforeAll(async () => {
    target = await startReference({ faults: [FAULT] });
  });
  afterAll(() => target.close());

  it('stops a shrink at the per-failure cap, and a later ' +
    'shrink of the run at the run-wide cap, with the reason', async () => {
    const config = resolveConfig(
      ['--alerts-url', target.alertsUrl, '--seed', '5', '--report-dir', '/tmp/conformance-shrink-budget'],
      { ALERTS_TOKEN: target.alertsToken },
      RULE_IDS,
    );
    const session = await createSession(config, await loadSpecs());
    const ledger = createLedger();
    const rules = RULES.filter((rule) => config.rules.includes(rule.id));
    const { alerts } = session.clients(
      (exchange): JudgedExchange => ({ ...exchange, ...recordExchange(session, ledger, rules, exchange) }),
      () => undefined,
    );
    if (!alerts) throw new Error('the alerts client was not built');
    const id = target.alertIds[0]!;
    const listed = await alerts.send({ operation: session.operation('listAlerts'), params: {}, probe: accept('list') });
    const data =
      (
        listed.response?.json as
          | { data?: Array<Record<string, unknown> & { channel: { webhookId: string } }> }
          | undefined
      )?.data ?? [];
    const alert = data.find((a) => a.id === id);
    if (!alert) throw new Error(`alert ${id} is not listed`);
    const arbitrary = alertUpdateBody({
      interval: alert.interval as string,
      references: [
        { dashboardId: alert.dashboard as string, tileId: alert.tileId as string, webhookId: alert.channel.webhookId },
      ],
    });
    const send = (json: unknown, more: Partial<Probe>): Promise<JudgedExchange> =>
      alerts.send({
        operation: session.operation('updateAlert'),
        params: { id },
        json,
        probe: accept('a complete alert update', more),
      });
    const seed = 11;
    const sent = await Promise.all(
      fc
        .sample(arbitrary, { seed, numRuns: 8 })
        .map((value, index) => send(value, { example: { property: 'test/alert update', seed, index } })),
    );
    expect(sent.some((e) => e.response?.status === 400) && sent.some((e) => e.response?.status === 200)).toBe(true);

    const before = session.gate.sent();
    const property = createShrinker({ session, ledger, rules, limits: { perCause: 5, perRun: 7 } })({
      arbitrary,
      send,
    });
    await shrinkAll(property, sent);
    // Of the eight exchanges it keeps only the first failing one of each cause.
    expect(property.held()).toBe(1);
    const findings = (): Finding[] => ledger.tallies[UPDATE]?.['request.valid-accepted']?.findings ?? [];
    const first = findings().find((f) => f.minimal)?.minimal;
    expect(first).toMatchObject({
      outcome: 'shrunk',
      complete: false,
      requests: 5,
      reason: 'the shrink budget of 5 requests per failure is spent',
    });
    expect(session.gate.sent() - before).toBe(5);
    expect(session.shrinkBudget.spent).toEqual({ requests: 5, sequences: 0 });

    // Another suite of the same run: the run-wide cap counts what the first one spent.
    const again: Exchange[] = sent.map(({ judgements, findings, ...exchange }) => ({
      ...exchange,
      probe: { ...exchange.probe, example: { ...exchange.probe.example!, property: 'test/again' } },
    }));
    /** The exchanges recorded again in another ledger, as judged there. */
    const recordedIn = (other: Ledger): JudgedExchange[] =>
      again.map((exchange) => ({ ...exchange, ...recordExchange(session, other, rules, exchange) }));
    const ledgerAgain = createLedger();
    await shrinkAll(
      createShrinker({ session, ledger: ledgerAgain, rules, limits: { perCause: 5, perRun: 7 } })({ arbitrary, send }),
      recordedIn(ledgerAgain),
    );
    const second = ledgerAgain.tallies[UPDATE]?.['request.valid-accepted']?.findings.find((f) => f.minimal)?.minimal;
    expect(second).toMatchObject({
      outcome: 'shrunk',
      complete: false,
      requests: 2,
      reason: "the run's shrink budget of 7 requests is spent",
    });
    expect(session.gate.sent() - before).toBe(7);

    const third = createLedger();
    await shrinkAll(
      createShrinker({ session, ledger: third, rules, limits: { perCause: 5, perRun: 7 } })({ arbitrary, send }),
      recordedIn(third),
    );
    expect(third.tallies[UPDATE]?.['request.valid-accepted']?.findings.find((f) => f.minimal)?.minimal).toEqual({
      outcome: 'skipped',
      reason: "the run's shrink budget of 7 requests is spent",
      requests: 0,
      complete: false,
      shared: [{ path: '/thresholdType', value: 'below' }],
      compared: { failing: 2, passing: 6 },
    });
    expect(session.gate.sent() - before).toBe(7);
  }, 30_000);
});
