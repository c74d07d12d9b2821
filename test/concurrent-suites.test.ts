import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { runSchedule, type ScheduledSuite } from '../engine/group-schedule.ts';
import { runnableAfter } from '../engine/run-suites.ts';
import { runInProcess, type InProcessRun } from './support/in-process.ts';
import { otherTenantEnv, targetEnv } from './support/target-env.ts';
import { judgedRules } from './support/unprobed.ts';

/** One request as a proxy saw it: when it arrived and when its answer was passed on. */
interface Timed {
  readonly api: 'management' | 'alerts';
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly at: number;
  answeredAt: number;
}

/** A proxy in front of one API of the reference target that answers every request `delayMs` late and records when. */
async function timingProxy(
  api: Timed['api'],
  upstream: string,
  delayMs: number,
  log: Timed[],
): Promise<{ url: string; server: Server }> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Timed = {
        api,
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        at: Date.now(),
        answeredAt: Number.POSITIVE_INFINITY,
      };
      log.push(entry);
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          const answer: Buffer[] = [];
          up.on('data', (c: Buffer) => answer.push(c));
          up.on('end', () => {
            setTimeout(() => {
              entry.answeredAt = Date.now();
              const { 'transfer-encoding': _te, connection: _c, 'keep-alive': _k, ...headers } = up.headers;
              res.writeHead(up.statusCode ?? 502, headers);
              res.end(Buffer.concat(answer));
            }, delayMs);
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A request of the disruptive class: any to the service's state path (its PATCHes, and the neighbourhood's unlisted
 * methods there, which run in a disruptive group too).
 */
const isServiceState = (t: Timed): boolean => /\/services\/[^/]+\/state$/.test(t.path);
const overlaps = (a: Timed, b: Timed): boolean => a.at < b.answeredAt && b.at < a.answeredAt;

describe('the suites of a run, concurrently under one gate', () => {
  let reference: ReferenceTarget;
  const servers: Server[] = [];
  const log: Timed[] = [];
  let run: InProcessRun;

  beforeAll(async () => {
    reference = await startReference();
    const management = await timingProxy('management', reference.managementUrl, 40, log);
    const alerts = await timingProxy('alerts', reference.alertsUrl, 40, log);
    servers.push(management.server, alerts.server);
    run = await runInProcess(
      ['--runs', '2', '--seed', '11', '--concurrency', '4', '--allow', 'read,write,disruptive'],
      {
        ...targetEnv(reference, { management: management.url, alerts: alerts.url }),
        ...otherTenantEnv(reference),
      },
    );
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await reference.close();
  });

  it('gives the clean verdicts', () => {
    expect(run.code, run.output).toBe(0);
    expect(judgedRules(run.report.results).filter((r) => r.outcome !== 'passed')).toEqual([]);
  });

  it('sends the alerts suite and the management suites at the same time, never more than --concurrency at once', () => {
    // Writes only: the preflight sends GETs to both APIs before the suites start.
    const writes = log.filter((t) => t.method !== 'GET');
    const alerts = writes.filter((t) => t.api === 'alerts');
    const management = writes.filter((t) => t.api === 'management' && !isServiceState(t));
    expect(alerts.some((a) => management.some((m) => overlaps(a, m)))).toBe(true);
    const peak = Math.max(...log.map((t) => log.filter((o) => o.at <= t.at && t.at < o.answeredAt).length));
    expect(peak).toBeLessThanOrEqual(4);
    expect(peak).toBeGreaterThan(1);
  });

  it(
    'sends the disruptive requests (the service state) alone, after every other request was answered, and ' +
      'stop then start with nothing between',
    () => {
      const state = log.filter(isServiceState);
      const others = log.filter((t) => !isServiceState(t));
      expect(state.length).toBeGreaterThan(2);
      // The neighbourhood's method its path does not list goes there with the disruptive requests, not before them.
      expect(state.filter((t) => t.method !== 'PATCH')).toHaveLength(1);
      const firstState = Math.min(...state.map((t) => t.at));
      expect(others.filter((t) => t.answeredAt > firstState)).toEqual([]);
      const stop = state.find((t) => t.body === '{"command":"stop"}')!;
      const start = state.find((t) => t.body === '{"command":"start"}' && t.at >= stop.answeredAt)!;
      expect(log.filter((t) => t !== stop && t !== start && t.at >= stop.at && t.at <= start.answeredAt)).toEqual([]);
    },
  );
});

describe('runSchedule', () => {
  /** A group that records when it starts and ends, and takes `ms`. */
  function group(
    events: string[],
    name: string,
    ms: number,
    more: { after?: string[]; disruptive?: boolean; fails?: boolean } = {},
  ) {
    return {
      name,
      after: more.after ?? [],
      disruptive: more.disruptive === true,
      async run() {
        events.push(`start ${name}`);
        await sleep(ms);
        events.push(`end ${name}`);
        if (more.fails) throw new Error(`${name} broke`);
      },
    };
  }

  it(
    'runs suites at once, keeps a sequential suite in order and a group after the ones it names, and ' +
      'disruptive groups alone at the end, in their order',
    async () => {
      const events: string[] = [];
      const suites: ScheduledSuite[] = [
        {
          name: 'chain',
          api: 'management',
          sequential: true,
          groups: [group(events, 'c1', 30), group(events, 'c2', 10)],
        },
        {
          name: 'free',
          api: 'management',
          sequential: false,
          groups: [group(events, 'f1', 20), group(events, 'f2', 5, { after: ['f1'] }), group(events, 'f3', 5)],
        },
        {
          name: 'risky',
          api: 'management',
          sequential: false,
          groups: [
            group(events, 'd1', 5, { disruptive: true }),
            group(events, 'r1', 5),
            group(events, 'd2', 5, { disruptive: true, after: ['d1'] }),
            group(events, 'd3', 5, { disruptive: true, after: ['d1'] }),
          ],
        },
      ];
      const errors = await runSchedule(suites, { stopped: () => false, onDone: (name) => events.push(`done ${name}`) });
      expect(errors.size).toBe(0);
      // A suite is through as soon as its own groups are: its verdicts need not wait for the disruptive groups.
      expect(events.indexOf('done chain')).toBe(events.indexOf('end c2') + 1);
      expect(events.indexOf('done free')).toBeLessThan(events.indexOf('start d1'));
      expect(events.at(-1)).toBe('done risky');
      events.splice(0, events.length, ...events.filter((e) => !e.startsWith('done')));
      const at = (event: string): number => events.indexOf(event);
      // Different suites start together.
      expect(at('start f1')).toBeLessThan(at('end c1'));
      expect(at('start r1')).toBeLessThan(at('end c1'));
      expect(at('start c2')).toBeGreaterThan(at('end c1'));
      expect(at('start f2')).toBeGreaterThan(at('end f1'));
      expect(at('start f3')).toBeLessThan(at('end f1'));
      // Disruptive groups: after every other group, alone among the suites, in their suite's order (d2 and d3 both
      // after d1, at once).
      expect(events.slice(-6, -3)).toEqual(['start d1', 'end d1', 'start d2']);
      expect(events.slice(-3, -2)).toEqual(['start d3']);
      expect(at('end d1')).toBeGreaterThan(Math.max(...['c2', 'f1', 'f2', 'f3', 'r1'].map((g) => at(`end ${g}`))));
    },
  );

  it(
    'keeps a sequential suite with a disruptive group whole, alone; a failing group fails its own suite ' +
      'only; an interrupt starts nothing new',
    async () => {
      const events: string[] = [];
      let stopped = false;
      const suites: ScheduledSuite[] = [
        {
          name: 'chain',
          api: 'management',
          sequential: true,
          groups: [group(events, 'c1', 5), group(events, 'cd', 5, { disruptive: true }), group(events, 'c3', 5)],
        },
        {
          name: 'broken',
          api: 'management',
          sequential: true,
          groups: [group(events, 'b1', 5, { fails: true }), group(events, 'b2', 5)],
        },
        { name: 'other', api: 'management', sequential: false, groups: [group(events, 'o1', 20)] },
      ];
      const errors = await runSchedule(suites, { stopped: () => stopped });
      expect([...errors.keys()]).toEqual(['broken']);
      expect(events).not.toContain('start b2');
      expect(events.slice(-6)).toEqual(['start c1', 'end c1', 'start cd', 'end cd', 'start c3', 'end c3']);
      expect(events.indexOf('end o1')).toBeLessThan(events.indexOf('start c1'));

      const later: string[] = [];
      const interrupted: ScheduledSuite[] = [
        {
          name: 'a',
          api: 'management',
          sequential: true,
          groups: [
            {
              ...group(later, 'a1', 5),
              async run() {
                later.push('a1');
                stopped = true;
              },
            },
            group(later, 'a2', 5),
          ],
        },
        { name: 'd', api: 'management', sequential: false, groups: [group(later, 'd1', 5, { disruptive: true })] },
      ];
      await runSchedule(interrupted, { stopped: () => stopped });
      expect(later).toEqual(['a1']);
    },
  );

  it("keeps a disruptive group alone among the suites of its API only: another API's chain goes on", async () => {
    const events: string[] = [];
    const suites: ScheduledSuite[] = [
      {
        name: 'service',
        api: 'management',
        sequential: false,
        groups: [group(events, 'm1', 5), group(events, 'md', 20, { disruptive: true })],
      },
      { name: 'keys', api: 'management', sequential: false, groups: [group(events, 'k1', 10)] },
      { name: 'alerts', api: 'alerts', sequential: true, groups: [group(events, 'a1', 30), group(events, 'a2', 30)] },
    ];
    const errors = await runSchedule(suites, { stopped: () => false });
    expect(errors.size).toBe(0);
    const at = (event: string): number => events.indexOf(event);
    // The disruptive group waits for its own API's groups, and for no other API's.
    expect(at('start md')).toBeGreaterThan(at('end k1'));
    expect(at('start md')).toBeGreaterThan(at('end m1'));
    expect(at('start md')).toBeLessThan(at('end a2'));
  });
});

describe('runnableAfter', () => {
  const group = (name: string, after?: string[]) => ({
    name,
    operations: [],
    estimate: () => 0,
    run: async () => undefined,
    ...(after ? { after } : {}),
  });

  it('lets a group that does not run stand for the groups it follows, so that no follower overtakes them', () => {
    const groups = [group('a'), group('b', ['a']), group('c', ['b']), group('d', ['c', 'a']), group('e')];
    expect(runnableAfter(groups[3]!, groups, new Set(['a', 'b', 'd', 'e']))).toEqual(['b', 'a']);
    expect(runnableAfter(groups[3]!, groups, new Set(['a', 'd', 'e']))).toEqual(['a']);
    expect(runnableAfter(groups[2]!, groups, new Set(['c', 'e']))).toEqual([]);
    expect(runnableAfter(groups[4]!, groups, new Set(['a', 'e']))).toEqual([]);
  });
});

describe("the suites' group order", () => {
  it('names in every after a group of the same suite, and no group waits on itself through others', async () => {
    const { SUITES } = await import('../suites/index.ts');
    for (const definition of SUITES.map((suite) => suite())) {
      const byName = new Map(definition.groups.map((group) => [group.name, group]));
      for (const group of definition.groups)
        for (const name of group.after ?? []) expect(byName.has(name), `${group.name} after ${name}`).toBe(true);
      // A cycle would leave its groups waiting for ever: walk each group's afters and never meet it again.
      for (const group of definition.groups) {
        const seen = new Set<string>();
        const stack = [...(group.after ?? [])];
        while (stack.length > 0) {
          const name = stack.pop()!;
          expect(name, `${definition.name}: ${group.name} waits on itself`).not.toBe(group.name);
          if (seen.has(name)) continue;
          seen.add(name);
          stack.push(...(byName.get(name)?.after ?? []));
        }
      }
    }
  });
});
