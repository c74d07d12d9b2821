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
        about: 'alert the run may update and put back (else picked from the list)',
      },
    ],
  },
});

/** Where and as whom the alerts API is reached. */
export type AlertsTarget = TargetOf<typeof ALERTS_API>;
