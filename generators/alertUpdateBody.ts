import * as fc from 'fast-check';

/** An alert update (PUT) body. */
export type AlertUpdateBody = {
  threshold?: number;
  interval?: string;
  thresholdType?: string;
  source?: string;
  dashboardId?: string;
  tileId?: string;
  channel?: { type: string; webhookId: string };
  name?: string;
  message?: string;
};

const COMMON_INTERVALS = Object.freeze(['1m', '5m', '15m', '30m', '1h', '6h', '12h', '24h']);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const OBJECT_ID = fc.stringMatching(/^[0-9a-f]{24}$/);
const TEXT = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.:_-]{0,38}[A-Za-z0-9.]$/);

/** Non-empty alert update bodies with any subset of the nine fields; intervals are minutes or hours only (`interval: 'common'`, the default, keeps to 1m..24h values seen in practice), and `ids` pins the dashboard, tile or webhook ids to real ones. */
export function alertUpdateBody(
  constraints: { interval?: 'common' | 'any'; ids?: { dashboardId?: string; tileId?: string; webhookId?: string } } = {},
): fc.Arbitrary<AlertUpdateBody> {
  const { interval = 'common', ids = {} } = constraints;
  const id = (known: string | undefined): fc.Arbitrary<string> => (known === undefined ? OBJECT_ID : fc.constant(known));
  const model = {
    threshold: fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 100),
    interval: interval === 'common'
      ? fc.constantFrom(...COMMON_INTERVALS)
      : fc.oneof(fc.integer({ min: 1, max: 59 }).map((n) => `${n}m`), fc.integer({ min: 1, max: 24 }).map((n) => `${n}h`)),
    thresholdType: fc.constantFrom('above', 'below'),
    source: fc.constantFrom('tile', 'search'),
    dashboardId: id(ids.dashboardId),
    tileId: id(ids.tileId),
    channel: fc.record({ type: fc.constant('webhook'), webhookId: id(ids.webhookId) }, { noNullPrototype: true }),
    name: TEXT,
    message: TEXT,
  };
  return fc.record(model, { noNullPrototype: true, requiredKeys: [] }).filter((body) => Object.keys(body).length > 0);
}
