import type { TraceTable } from '../spec/traceability.ts';
import {
  ALERT_UPDATE_FIELD,
  ALERT_UPDATE_ONLY_FIELD,
  DOCUMENT_SCOPE,
  FREE_STATE,
  NOT_SHOWN,
  RESPONSE_FIELD,
  SAMPLE_VALUES,
  STATE_FIELD,
  TIMESTAMP_FIELD,
} from './traces.ts';

/**
 * Every statement of the alerts document (../shared/seeds/001_212df2af56184e86.txt), by the id its place in the
 * document gives it (spec/traceability-statements.ts), with the rules that judge it, the tolerance of RULES.md that
 * says why nothing is judged, or why it cannot be tested. `test/traceability.test.ts` fails on a statement with no
 * entry here.
 */
export const ALERTS_TRACE: TraceTable = Object.freeze({
  'alerts:intro.this-document-covers-the': {
    text:
      'This document covers the alerts HTTP API reached at {alerts_base_url}: updating one alert and listing ' +
      'alerts.',
    ...DOCUMENT_SCOPE,
  },
  'alerts:intro.the-management-api-for': {
    text: 'The management API for services, pipes, keys, usage and backups is covered in the first document.',
    ...DOCUMENT_SCOPE,
  },
  'alerts:what.the-alerts-api-is': {
    text: 'The alerts API is a JSON-over-HTTP API that manages alerts.',
    rules: ['response.content-type', 'alerts.envelope'],
  },
  'alerts:what.an-alert-compares-a': {
    text:
      'An alert compares a value against a threshold over an interval, for a dashboard tile or a saved ' +
      'search, and notifies a channel (a webhook) when the condition holds.',
    notTestable:
      'alerts fire and notify outside the API: the harness sees only the alert record, whose fields the schema checks',
  },
  'alerts:what.the-api-lets-a': {
    text: 'The API lets a caller update an alert by id and list alerts.',
    rules: ['request.valid-accepted', 'alerts.envelope'],
  },
  'alerts:resources.alert.id': { text: 'id | string | alert identifier', ...RESPONSE_FIELD },
  'alerts:resources.alert.name': { text: 'name | string | ', ...ALERT_UPDATE_FIELD },
  'alerts:resources.alert.message': { text: 'message | string | ', ...ALERT_UPDATE_FIELD },
  'alerts:resources.alert.threshold': { text: 'threshold | number | ', ...ALERT_UPDATE_FIELD },
  'alerts:resources.alert.interval': {
    text:
      'interval | string | a number followed by a unit letter (samples use `h` and `m`); the full set of ' +
      'allowed values: not shown.',
    ...ALERT_UPDATE_FIELD,
  },
  'alerts:resources.alert.interval.not-shown': {
    text:
      'interval | string | a number followed by a unit letter (samples use `h` and `m`); the full set of ' +
      'allowed values: not shown.',
    ...SAMPLE_VALUES,
  },
  'alerts:resources.alert.thresholdtype': {
    text: 'thresholdType | enum string | `above`, `below`',
    rules: ['response.schema', 'alerts.enums', 'alerts.update-applies'],
  },
  'alerts:resources.alert.source': {
    text: 'source | enum string | `tile`, `search`',
    rules: ['response.schema', 'alerts.enums', 'alerts.update-applies'],
  },
  'alerts:resources.alert.state': { text: 'state | string | see States', ...STATE_FIELD },
  'alerts:resources.alert.channel': {
    text: 'channel | object | `type` string (only `webhook` is shown; other types: not shown), `webhookId` string',
    ...ALERT_UPDATE_FIELD,
  },
  'alerts:resources.alert.channel.not-shown': {
    text: 'channel | object | `type` string (only `webhook` is shown; other types: not shown), `webhookId` string',
    ...SAMPLE_VALUES,
  },
  'alerts:resources.alert.team': { text: 'team | string | identifier of the owning team', ...RESPONSE_FIELD },
  'alerts:resources.alert.tileid': { text: 'tileId | string | tile the alert watches', ...ALERT_UPDATE_FIELD },
  'alerts:resources.alert.dashboard': {
    text: 'dashboard | string | dashboard identifier',
    rules: ['response.schema', 'alerts.dashboard-mapping'],
  },
  'alerts:resources.alert.savedsearch': {
    text: 'savedSearch | string | present in the update response',
    ...ALERT_UPDATE_ONLY_FIELD,
  },
  'alerts:resources.alert.groupby': {
    text: 'groupBy | string | present in the update response',
    ...ALERT_UPDATE_ONLY_FIELD,
  },
  'alerts:resources.alert.silenced': {
    text: 'silenced | boolean | present in the update response',
    ...ALERT_UPDATE_ONLY_FIELD,
  },
  'alerts:resources.alert.createdat': { text: 'createdAt | string (ISO 8601 date-time) | ', ...TIMESTAMP_FIELD },
  'alerts:resources.alert.updatedat': { text: 'updatedAt | string (ISO 8601 date-time) | ', ...TIMESTAMP_FIELD },
  'alerts:resources.alert.the-list-response-entries': {
    text: 'The list response entries omit `savedSearch`, `groupBy` and `silenced`.',
    rules: ['alerts.list-omits'],
  },
  'alerts:resources.alert.update-request-body-fields': {
    text:
      'Update request body fields: `threshold` number, `interval` string, `thresholdType` enum, `source` ' +
      'enum, `dashboardId` string, `tileId` string, `channel` object (`type`, `webhookId`), `name` string, ' +
      '`message` string.',
    rules: ['request.valid-accepted', 'alerts.update-applies', 'alerts.enums'],
    tolerance: 'required-fields-not-shown',
  },
  'alerts:resources.alert.note-that-the-request': {
    text: 'Note that the request names the dashboard `dashboardId` while the alert record names it `dashboard`.',
    rules: ['alerts.dashboard-mapping'],
  },
  'alerts:states.alert-state-values-and': { text: 'Alert state values and transitions: not shown.', ...FREE_STATE },
  'alerts:endpoints.paths-are-under-alerts': {
    text: 'Paths are under {alerts_base_url}.',
    notTestable:
      'it names the base URL that the run is pointed at (a setting): every probe is sent there, and a ' +
      'target that does not answer there is a configuration error (exit 2), not a verdict',
  },
  'alerts:endpoints.put': {
    text:
      'PUT | /api/v2/alerts/{id} | path `id` string (alert id, required); JSON body with the update fields ' +
      'above | `{ data: Alert }` (success: updated alert)',
    rules: ['alerts.envelope', 'alerts.update-fields', 'request.valid-accepted', 'auth.required'],
  },
  'alerts:endpoints.get': {
    text: 'GET | /api/v2/alerts | no parameters | `{ data: [Alert, ...] }`',
    rules: ['alerts.envelope', 'alerts.list-omits', 'auth.required'],
  },
  'alerts:endpoints.rules.the-update-request-uses': {
    text: 'The update request uses `Content-Type: application/json`.',
    notTestable: 'it binds the caller, not the API: the harness sends every update with it',
  },
  'alerts:endpoints.rules.which-update-fields-are': {
    text: 'Which update fields are required: not shown.',
    tolerance: 'required-fields-not-shown',
  },
  'alerts:endpoints.rules.alert-operations-other-than': {
    text: 'Alert operations other than update and list, such as create, get one and delete: not shown.',
    ...NOT_SHOWN,
  },
  'alerts:authentication.scheme-bearer-token-in': {
    text:
      'Scheme: bearer token in the `Authorization` header in the form `Authorization: Bearer <token>`, ' +
      'required on both operations.',
    rules: ['auth.required'],
  },
  'alerts:authentication.how-the-token-is': { text: 'How the token is obtained: not shown.', ...NOT_SHOWN },
  'alerts:events.the-alert-channel-of': {
    text: 'The alert `channel` of type `webhook` identifies a webhook receiving notifications.',
    notTestable: 'notifications are sent outside the API: the harness reads no webhook',
  },
  'alerts:events.the-content-of-notifications': {
    text: 'The content of notifications and any other events: not shown.',
    ...NOT_SHOWN,
  },
  'alerts:errors.error-responses-not-shown': { text: 'Error responses: not shown.', tolerance: 'error-format' },
  'alerts:limits.rate-limits-and-size': {
    text: 'Rate limits and size limits: not shown.',
    tolerance: 'rate-limit-429',
  },
  'alerts:versioning.all-paths-begin-with': {
    text: 'All paths begin with `/api/v2`.',
    notTestable:
      'the paths of openapi/ carry the prefix, so every probe is sent under it; a target that served ' +
      'elsewhere would fail every rule, and none judges the prefix alone',
  },
});
