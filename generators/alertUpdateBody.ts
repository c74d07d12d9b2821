import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import type { AlertReference } from './alertReference.ts';

/** An alert update (PUT) body; which fields are required is not shown, so every field is optional here. */
export type AlertUpdateBody = {
  threshold?: number | bigint;
  interval?: string;
  thresholdType?: string;
  source?: string;
  dashboardId?: string;
  tileId?: string;
  channel?: { type?: string; webhookId?: string };
  name?: string;
  message?: string;
};

/** A complete alert update body: all nine fields. */
export type CompleteAlertUpdateBody = Required<Omit<AlertUpdateBody, 'channel'>> & {
  channel: { type: string; webhookId: string };
};

/** What a must-accept alert update may rely on: the interval the alert already has, and references the target lists. */
export type AlertUpdateConstraints = {
  /** The interval every body sends: the listed alert's own. */
  interval: string;
  /**
   * The source kind every body sends: the listed alert's own (default `tile`, the kind whose alerts the body's
   * `dashboardId` and `tileId` apply to). The body has no field that names a saved search, so switching kind is
   * observed only (RULES.md).
   */
  source?: 'tile' | 'search';
  /** The channel type every body sends: the listed alert's own (default `webhook`, the one type the documents show). */
  channelType?: string;
  /** Dashboard, tile and webhook ids taken from listed alerts; each body uses one entry, whole. */
  references: readonly AlertReference[];
  /**
   * Names and messages the target lists: which text a name may hold is not shown, so a body's name and message are
   * drawn from these when given (unusual text goes to observe probes).
   */
  texts?: readonly string[];
};

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const OBJECT_ID = lazy(() => fc.stringMatching(/^[0-9a-f]{24}$/));
const ASCII_TEXT = lazy(() => fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.:_-]{0,38}[A-Za-z0-9.]$/));
const WORLD_TEXT = lazy(() => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 })).filter(
  (text) => text.trim() !== '',
);
const PHRASES = fc.constantFrom(
  'Taux d’erreur élevé',
  'エラー率が高い',
  'Fehlerquote über Schwelle ✓',
  'Ошибка платежей 🚨',
  'Latência > 5 s',
);

/** Non-empty alert names and messages: plain ASCII, and text in other scripts and with symbols. */
export const ALERT_TEXT: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: ASCII_TEXT },
  { weight: 1, arbitrary: PHRASES },
  { weight: 1, arbitrary: WORLD_TEXT },
);

/** Finite thresholds of any sign: whole numbers, cents, and any double. */
export const ALERT_THRESHOLD: fc.Arbitrary<number> = fc.oneof(
  { weight: 2, arbitrary: fc.integer({ min: -1_000, max: 100_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -100_000, max: 100_000 }).map((cents) => cents / 100) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)) },
);

function complete(
  interval: fc.Arbitrary<string>,
  reference: fc.Arbitrary<AlertReference>,
  text: fc.Arbitrary<string> = ALERT_TEXT,
  kind: 'tile' | 'search' = 'tile',
  channelType = 'webhook',
): fc.Arbitrary<CompleteAlertUpdateBody> {
  return fc
    .record(
      {
        threshold: ALERT_THRESHOLD,
        interval,
        thresholdType: fc.constantFrom('above', 'below'),
        source: fc.constant(kind),
        reference,
        name: text,
        message: text,
      },
      { noNullPrototype: true },
    )
    .map(
      ({
        threshold,
        interval: every,
        thresholdType,
        source,
        reference: { dashboardId, tileId, webhookId },
        name,
        message,
      }) => ({
        threshold,
        interval: every,
        thresholdType,
        source,
        dashboardId,
        tileId,
        channel: { type: channelType, webhookId },
        name,
        message,
      }),
    );
}

/**
 * Complete alert update bodies (all nine fields): the given `interval`, `source` and channel type (the alert's own),
 * one whole entry of `references` (from listed alerts), any finite threshold, thresholdType from its enum, and names
 * and messages from `texts` (else non-empty ones, non-ASCII included).
 */
export function alertUpdateBody(constraints: AlertUpdateConstraints): fc.Arbitrary<CompleteAlertUpdateBody>;
/**
 * @deprecated The suite's former call: `interval` 5m or 1h, a tile alert's body, ids from `ids` or invented 24-hex
 *   ones; pass `{ interval, references }` instead.
 */
export function alertUpdateBody(constraints?: { ids?: Partial<AlertReference> }): fc.Arbitrary<CompleteAlertUpdateBody>;
export function alertUpdateBody(
  constraints: AlertUpdateConstraints | { ids?: Partial<AlertReference> } = {},
): fc.Arbitrary<CompleteAlertUpdateBody> {
  if ('interval' in constraints) {
    if (constraints.references.length === 0)
      throw new RangeError("alertUpdateBody: `references` must list at least one listed alert's ids");
    const texts = constraints.texts ?? [];
    return complete(
      fc.constant(constraints.interval),
      fc.constantFrom(...constraints.references),
      texts.length > 0 ? fc.constantFrom(...texts) : ALERT_TEXT,
      constraints.source,
      constraints.channelType,
    );
  }
  const ids = 'ids' in constraints ? (constraints.ids ?? {}) : {};
  const id = (known: string | undefined): fc.Arbitrary<string> =>
    known === undefined ? OBJECT_ID : fc.constant(known);
  const reference = fc.record(
    { dashboardId: id(ids.dashboardId), tileId: id(ids.tileId), webhookId: id(ids.webhookId) },
    { noNullPrototype: true },
  );
  return complete(fc.constantFrom('5m', '1h'), reference);
}
