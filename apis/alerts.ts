import { alertNotUpdatable, dashboardNamedOtherwise } from './alert-restore.ts';
import { describeApi, type TargetOf } from './descriptor.ts';

/** The alerts API: a Bearer token, and no envelope beyond `{ data }`. */
export const ALERTS_API = describeApi({
  name: 'alerts',
  specFile: 'alerts.yaml',
  auth: { securityScheme: 'bearerAuth', scheme: 'bearer' },
  envelope: { payload: 'data' },
  settings: {
    baseUrl: { variable: 'ALERTS_BASE_URL', flag: 'alerts-url' },
    pathPrefix: '/api/v2',
    credentials: {
      about: 'Bearer token of the alerts API',
      token: { variable: 'ALERTS_TOKEN', field: 'token', about: 'Bearer token of the alerts API' },
    },
    ids: [
      {
        variable: 'ALERT_ID',
        flag: 'alert',
        field: 'alertId',
        required: false,
        label: 'alert',
        about: 'alert the run may update and put back (else picked from the list)',
      },
    ],
    other: {
      about: "another team's token (access.other-tenant)",
      credentials: {
        about: 'Bearer token of another team',
        token: { variable: 'OTHER_ALERTS_TOKEN', field: 'otherToken', about: 'Bearer token of another team' },
      },
      ids: [],
    },
  },
  preflight: [
    {
      operationId: 'listAlerts',
      ids: [],
      gets: '/api/v2/alerts',
      proves: 'token',
      refused: (w) =>
        `The alerts API refused ${w.credentials} (${w.seen}): check ${w.credentials}, the Bearer token of the alerts ` +
        `API at ${w.baseUrlVariable}.`,
      notFound: {
        notTheApi: (w) =>
          `${w.baseUrlVariable} (${w.baseUrl}) answers, but not as the alerts API (${w.seen}): set ` +
          `${w.baseUrlVariable} to the URL under which the API's ${w.pathPrefix}/... paths are served.`,
      },
      finds: {
        field: 'alertId',
        plan: 'ALERT_ID listed and updatable',
        found: (w) => `alert ${w.target.alertId} updatable`,
        notListed: (w) =>
          `${w.name('alertId')} ${w.target.alertId} is not among the ${w.listed} alerts the alerts API lists ` +
          `(GET ${w.url}): give the id of a listed alert, or unset ${w.name('alertId')} to let the run pick one.`,
        unusable: {
          // A list that names the dashboard otherwise is the target's finding (alerts.dashboard-mapping), not
          // ALERT_ID's.
          reason: (alert) => (dashboardNamedOtherwise(alert) === undefined ? alertNotUpdatable(alert) : undefined),
          code: 'ALERT_NOT_UPDATABLE',
          message: (w, reason) =>
            `${w.name('alertId')} ${w.target.alertId} names an alert the run may not update (${reason}): name a ` +
            `tile alert listed with every update field, or unset ${w.name('alertId')} to let the run pick one.`,
        },
      },
    },
  ],
  leftChanged: [
    {
      allow: 'write',
      warning: (target) =>
        `the alert it updates${target.alertId ? ` (${target.alertId})` : ''} may not have been put back: check it.`,
    },
  ],
});

/** Where and as whom the alerts API is reached. */
export type AlertsTarget = TargetOf<typeof ALERTS_API>;
