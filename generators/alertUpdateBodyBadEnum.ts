import * as fc from 'fast-check';
import { alertUpdateBody, type AlertUpdateBody } from './alertUpdateBody.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';

const THRESHOLD_TYPES = new Set(['above', 'below']);
const SOURCES = new Set(['tile', 'search']);

const BAD_THRESHOLD_TYPES = Object.freeze(['ABOVE', 'Below', 'over', 'under', 'equal', 'gt', '', ' above']);
const BAD_SOURCES = Object.freeze(['TILE', 'Search', 'dashboard', 'tiles', 'query', '', 'search ']);

/** Alert update bodies, otherwise valid, whose `thresholdType` or `source` (or both) is a string outside its enum. */
export const alertUpdateBodyBadEnum: InvalidGenerator<AlertUpdateBody, { ids?: { dashboardId?: string; tileId?: string; webhookId?: string } }> = Object.freeze({
  breaks: 'alerts.enums',
  description: 'an alert update body whose thresholdType or source is outside its enum; every other field valid',
  arbitrary: (constraints: { ids?: { dashboardId?: string; tileId?: string; webhookId?: string } } = {}) =>
    fc
      .tuple(
        alertUpdateBody(constraints),
        fc.constantFrom('thresholdType', 'source', 'both'),
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...BAD_THRESHOLD_TYPES) }, { weight: 1, arbitrary: fc.string().filter((s) => !THRESHOLD_TYPES.has(s)) }),
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...BAD_SOURCES) }, { weight: 1, arbitrary: fc.string().filter((s) => !SOURCES.has(s)) }),
      )
      .map(([body, field, thresholdType, source]): AlertUpdateBody => ({
        ...body,
        ...(field === 'source' ? {} : { thresholdType }),
        ...(field === 'thresholdType' ? {} : { source }),
      })),
  witness: (body: AlertUpdateBody) =>
    ('thresholdType' in body && !THRESHOLD_TYPES.has(body.thresholdType as string))
    || ('source' in body && !SOURCES.has(body.source as string)),
});
