import * as fc from 'fast-check';
import type { AlertReference } from './alertReference.ts';
import { ALERT_TEXT, ALERT_THRESHOLD, type AlertUpdateBody } from './alertUpdateBody.ts';
import { oddNumber } from './oddNumber.ts';
import { oddReference } from './oddReference.ts';
import { oddText } from './oddText.ts';
import { partialRecord } from './partialRecord.ts';

/** Intervals of the documented shape (a number and a unit letter) that the documents do not promise. */
const UNPROMISED_INTERVALS = Object.freeze([
  '24h',
  '2d',
  '90s',
  '1w',
  '30s',
  '7d',
  '48h',
  '0m',
  '1000m',
  '3h',
  '45m',
  '1d',
]);
// Built once: fast-check works out the interesting slices of each arbitrary, which costs milliseconds.
const INTERVAL = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...UNPROMISED_INTERVALS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom('s', 'm', 'h', 'd', 'w'))
      .map(([n, unit]) => `${n}${unit}`),
  },
);
const CHANNEL_TYPE = fc.oneof(
  { weight: 3, arbitrary: fc.constant('webhook') },
  { weight: 1, arbitrary: fc.constantFrom('email', 'slack', 'pagerduty') },
  { weight: 1, arbitrary: oddText() },
);

/**
 * Observe alert update bodies: any non-empty subset of the nine fields (and of the channel's two), intervals the
 * documents do not promise, invented references that are not 24-hex ids mixed with `references` (from listed alerts)
 * when given, thresholds of any sign and size, unusual names, messages and channel types; thresholdType and source stay
 * in their enums.
 */
export function alertUpdateBodyObserve(
  constraints: { references?: readonly AlertReference[] } = {},
): fc.Arbitrary<AlertUpdateBody> {
  const listed = constraints.references ?? [];
  const reference = (field: keyof AlertReference): fc.Arbitrary<string> =>
    listed.length === 0
      ? oddReference()
      : fc.oneof(oddReference(), fc.constantFrom(...listed.map((entry) => entry[field])));
  const channel = partialRecord({ type: CHANNEL_TYPE, webhookId: reference('webhookId') }, { minKeys: 1 });
  const model = {
    threshold: fc.oneof(ALERT_THRESHOLD, oddNumber()),
    interval: INTERVAL,
    thresholdType: fc.constantFrom('above', 'below'),
    source: fc.constantFrom('tile', 'search'),
    dashboardId: reference('dashboardId'),
    tileId: reference('tileId'),
    channel,
    name: fc.oneof(ALERT_TEXT, oddText()),
    message: fc.oneof(ALERT_TEXT, oddText()),
  };
  return partialRecord<AlertUpdateBody>(model, { minKeys: 1 });
}
