import { describe, expect, it } from 'vitest';
import { alertNotUpdatable, dashboardNamedOtherwise, putBackBody } from '../apis/alert-restore.ts';
import { builtMain, failedRules, runInProcess } from './support/in-process.ts';

const tileAlert = {
  id: 'a1',
  name: 'High error rate',
  message: 'Errors above threshold',
  threshold: 100,
  interval: '5m',
  thresholdType: 'above',
  source: 'tile',
  state: 'OK',
  channel: { type: 'webhook', webhookId: 'w1' },
  team: 't1',
  tileId: 'tile-errors',
  dashboard: 'd1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

describe('alertNotUpdatable', () => {
  it('lets the run update a tile alert whose listing carries every update field, extra fields and all', () => {
    expect(alertNotUpdatable(tileAlert)).toBeUndefined();
    expect(alertNotUpdatable({ ...tileAlert, undocumented: 1, threshold: 0.5, tileId: '' })).toBeUndefined();
  });

  it('refuses a saved-search alert, whose savedSearch lists omit', () => {
    expect(alertNotUpdatable({ ...tileAlert, source: 'search', tileId: '', dashboard: '' })).toMatch(
      /^it is a saved-search alert \(source "search"\)/,
    );
  });

  it.each([
    [{ dashboard: undefined }, /lacks `dashboard` \(the update's `dashboardId`\)/],
    [{ channel: null, message: undefined }, /lacks `channel`, `message`,/],
    [{ threshold: '100' }, /`threshold` is "100", not a number/],
    [{ thresholdType: 'sideways' }, /`thresholdType` is "sideways", not "above" or "below"/],
    [{ source: 'dashboard' }, /`source` is "dashboard", not "tile" or "search"/],
    [{ channel: { type: 'webhook' } }, /`channel` is .*not an object with string `type` and `webhookId`/],
    [{ interval: 5, name: 7 }, /`interval` is 5, not a string; `name` is 7, not a string/],
  ] as const)('refuses an alert whose listing cannot be sent back (%o)', (change, reason) => {
    const alert: Record<string, unknown> = { ...tileAlert, ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete alert[key];
    expect(alertNotUpdatable(alert)).toMatch(reason);
  });
});

describe('dashboardNamedOtherwise', () => {
  it(
    'names a listing that calls the dashboard dashboardId a finding of alerts.dashboard-mapping, ' + 'not a setting',
    () => {
      const { dashboard: _named, ...rest } = tileAlert;
      expect(dashboardNamedOtherwise({ ...rest, dashboardId: 'd1' })).toMatch(
        /names the dashboard `dashboardId`, not `dashboard`.*alerts\.dashboard-mapping on listAlerts/,
      );
      expect(dashboardNamedOtherwise(tileAlert)).toBeUndefined();
      expect(dashboardNamedOtherwise(rest)).toBeUndefined();
    },
  );
});

describe('putBackBody', () => {
  it(
    'sends the nine update fields as listed, the listing’s dashboard as dashboardId, and nothing the update ' +
      'cannot set',
    () => {
      const body = putBackBody({ ...tileAlert, state: 'ALERT', team: 't', createdAt: '2026-01-01T00:00:00Z' });
      expect(Object.keys(body).sort()).toEqual([
        'channel',
        'dashboardId',
        'interval',
        'message',
        'name',
        'source',
        'threshold',
        'thresholdType',
        'tileId',
      ]);
      expect(body.dashboardId).toBe(tileAlert.dashboard);
      expect(putBackBody({ ...tileAlert, message: null }).message).toBeUndefined();
    },
  );
});

describe('a put-back within --max-requests', () => {
  const FLAGS = ['--rules', 'alerts.enums', '--seed', '5', '--reference-fault', 'alerts-threshold-type-unchecked'];

  it('is kept by the plan: a target that takes an enum probe gets its alert back, within the budget', async () => {
    const lines: string[] = [];
    expect(
      await builtMain(
        ['--dry-run', '--runs', '1', ...FLAGS],
        {},
        { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      ),
    ).toBe(0);
    const text = lines.join('\n');
    // The list, the sixteen enum probes and the list after them (sent when all are refused), and the put-back that
    // only a target taking one of them needs (it then sends no list after).
    expect(text).toContain('Total: 18 request(s)');
    expect(text).toMatch(/Kept for put-backs: 1 request\(s\) beyond the total, .*fits in --max-requests 19\./);
    const whole = await runInProcess([...FLAGS, '--max-requests', '19']);
    expect(whole.report.incidents).toEqual([]);
    expect(whole.report.stats.requests).toBe(18);
    expect(failedRules(whole.report)).toEqual(['alerts.enums']);
    expect(whole.output).not.toContain('is below the');
  });

  it('is sent when the other requests spent the budget: the last probe is cut, never the put-back', async () => {
    const run = await runInProcess([...FLAGS, '--max-requests', '17']);
    expect(run.output).toContain(
      '--max-requests 17 is below the 18 requests that one example per property needs and the 1 put-back(s) kept ' +
        'beyond them',
    );
    expect(run.report.incidents).toEqual([]);
    expect(run.report.stats.requests).toBe(17);
  });
});
