import { verifyBearer } from './auth.ts';
import { isJsonNumber, isObject, type JsonObject } from './json.ts';
import { problem } from './problem.ts';
import type { ReferenceApi } from './reference-api.ts';
import type { Call, Route } from './route.ts';
import { visibleAlerts } from './scope.ts';
import { teamsOf, type AlertRecord } from './store.ts';
import { check, num, obj, str, type FieldSpec } from './validate.ts';

/** The threshold types an alert may have. */
export const THRESHOLD_TYPES = Object.freeze(['above', 'below'] as const);

/** The sources an alert may watch. */
export const ALERT_SOURCES = Object.freeze(['tile', 'search'] as const);

/** The alert update body: every field optional. */
export const UPDATE_ALERT_SPEC: FieldSpec = obj({
  threshold: num(),
  interval: str({ pattern: { regex: /^\d+[smhd]$/, hint: 'a number followed by s, m, h or d, such as 5m or 1h' } }),
  thresholdType: str({ enum: THRESHOLD_TYPES }),
  source: str({ enum: ALERT_SOURCES }),
  dashboardId: str(),
  tileId: str(),
  channel: obj({ type: str(), webhookId: str() }),
  name: str(),
  message: str(),
});

/** The update response form of an alert: every field. */
export function presentAlert(alert: AlertRecord): JsonObject {
  return { ...alert, channel: { ...alert.channel } };
}

/** The list entry form of an alert: without `savedSearch`, `groupBy` and `silenced`. */
export function presentListedAlert(alert: AlertRecord): JsonObject {
  const { savedSearch: _savedSearch, groupBy: _groupBy, silenced: _silenced, ...listed } = presentAlert(alert);
  return listed;
}

/** PUT /api/v2/alerts/{id}: updates an alert and answers `{ data: alert }`. */
export const updateAlert: Route = {
  method: 'PUT',
  path: ['api', 'v2', 'alerts', ':id'],
  operation: 'updateAlert',
  hasBody: true,
  check: (call) => {
    const id = call.params.id ?? '';
    if (alertOf(call) === undefined) {
      return [problem('id', 'not-found', `alert ${id} was not found`, 404)];
    }
    return check(UPDATE_ALERT_SPEC, call.body, '');
  },
  apply: (call) => {
    const alert = alertOf(call);
    if (alert === undefined)
      return { kind: 'rejected', problems: [problem('id', 'not-found', 'alert not found', 404)] };
    const body = isObject(call.body) ? call.body : {};
    const channel = isObject(body.channel) ? body.channel : {};
    const text = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
    const updated: AlertRecord = {
      ...alert,
      name: text(body.name, alert.name),
      message: text(body.message, alert.message),
      threshold: isJsonNumber(body.threshold) ? body.threshold : alert.threshold,
      interval: text(body.interval, alert.interval),
      thresholdType: text(body.thresholdType, alert.thresholdType),
      source: text(body.source, alert.source),
      channel: {
        type: text(channel.type, alert.channel.type),
        webhookId: text(channel.webhookId, alert.channel.webhookId),
      },
      tileId: text(body.tileId, alert.tileId),
      dashboard: text(body.dashboardId, alert.dashboard),
      updatedAt: call.now.toISOString(),
    };
    if (call.persist) call.store.alerts.set(updated.id, updated);
    return { kind: 'ok', result: { data: presentAlert(updated) }, previous: { data: presentAlert(alert) } };
  },
};

/** The alert a path names, among those the call may see. */
function alertOf(call: Call): AlertRecord | undefined {
  const id = (call.params.id ?? '').toLowerCase();
  return visibleAlerts(call).find((alert) => alert.id === id);
}

/** GET /api/v2/alerts: lists the alerts as `{ data: [...] }`. */
export const listAlerts: Route = {
  method: 'GET',
  path: ['api', 'v2', 'alerts'],
  operation: 'listAlerts',
  hasBody: false,
  check: () => [],
  apply: (call) => ({ kind: 'ok', result: { data: visibleAlerts(call).map(presentListedAlert) } }),
};

/** The routes of the alerts API, all under `/api/v2`. */
export const ALERTS_ROUTES: readonly Route[] = Object.freeze([updateAlert, listAlerts]);

/** The alerts API as the reference target serves it: one Bearer token, and no envelope beyond `{ data }`. */
export const ALERTS_REFERENCE: ReferenceApi = Object.freeze<ReferenceApi>({
  name: 'alerts',
  routes: ALERTS_ROUTES,
  verify: (header, store) => verifyBearer(header, teamsOf(store)),
  challenge: 'Bearer realm="alerts"',
  enveloped: false,
  portOption: 'alertsPort',
  settings: (store, baseUrl) => ({
    ALERTS_BASE_URL: baseUrl,
    ALERTS_TOKEN: store.alertsToken,
    OTHER_ALERTS_TOKEN: store.otherTeam.alertsToken,
  }),
  suggested: (store) => ({ ALERT_ID: [...store.alerts.keys()][0] ?? '' }),
});
