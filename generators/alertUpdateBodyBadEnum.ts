import * as fc from 'fast-check';
import type { AlertReference } from './alertReference.ts';
import { alertUpdateBody, type AlertUpdateBody } from './alertUpdateBody.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';

const THRESHOLD_TYPES = new Set(['above', 'below']);
const SOURCES = new Set(['tile', 'search']);

const BAD_THRESHOLD_TYPES = Object.freeze(['ABOVE', 'Below', 'over', 'under', 'equal', 'gt', '', ' above']);
const BAD_SOURCES = Object.freeze(['TILE', 'Search', 'dashboard', 'tiles', 'query', '', 'search ']);

/** References used when the caller gives none: 24-hex ids of the shape the listed alerts use. */
const INVENTED: readonly AlertReference[] = Object.freeze([
  Object.freeze({
    dashboardId: '65a1b2c3d4e5f60718293a4b',
    tileId: '65a1b2c3d4e5f60718293a4c',
    webhookId: '65a1b2c3d4e5f60718293a4d',
  }),
]);

type Constraints = { interval?: string; references?: readonly AlertReference[] };

/**
 * Complete alert update bodies, otherwise valid (the given `interval`, default `5m`, and `references`), whose
 * `thresholdType` or `source` (or both) is a string outside its enum.
 */
export const alertUpdateBodyBadEnum: InvalidGenerator<AlertUpdateBody, Constraints> = Object.freeze({
  breaks: 'alerts.enums',
  description: 'an alert update body whose thresholdType or source is outside its enum; every other field valid',
  arbitrary: (constraints: Constraints = {}) =>
    fc
      .tuple(
        alertUpdateBody({ interval: constraints.interval ?? '5m', references: constraints.references ?? INVENTED }),
        fc.constantFrom('thresholdType', 'source', 'both'),
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...BAD_THRESHOLD_TYPES) },
          { weight: 1, arbitrary: fc.string().filter((s) => !THRESHOLD_TYPES.has(s)) },
        ),
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...BAD_SOURCES) },
          { weight: 1, arbitrary: fc.string().filter((s) => !SOURCES.has(s)) },
        ),
      )
      .map(
        ([body, field, thresholdType, source]): AlertUpdateBody => ({
          ...body,
          ...(field === 'source' ? {} : { thresholdType }),
          ...(field === 'thresholdType' ? {} : { source }),
        }),
      ),
  witness: (body: AlertUpdateBody) =>
    ('thresholdType' in body && !THRESHOLD_TYPES.has(body.thresholdType as string)) ||
    ('source' in body && !SOURCES.has(body.source as string)),
});
