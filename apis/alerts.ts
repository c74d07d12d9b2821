import type { ApiDescriptor } from '../core/api-descriptor.ts';

/** The alerts API: a Bearer token, and no envelope beyond `{ data }`. */
export const ALERTS_API: ApiDescriptor = Object.freeze({
  name: 'alerts',
  specFile: 'alerts.yaml',
  auth: Object.freeze({ securityScheme: 'bearerAuth', scheme: 'bearer' }),
  envelope: Object.freeze({ payload: 'data' }),
  settings: Object.freeze({
    baseUrl: Object.freeze({ variable: 'ALERTS_BASE_URL', flag: 'alerts-url' }),
    pathPrefix: '/api/v2',
    credentials: Object.freeze({ token: 'ALERTS_TOKEN' }),
    ids: Object.freeze([Object.freeze({ variable: 'ALERT_ID', flag: 'alert' })]),
  }),
  credentialsOf: (config) => config.alerts && { token: config.alerts.token },
} satisfies ApiDescriptor);
