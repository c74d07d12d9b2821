import type { ApiDescriptor } from '../core/api-descriptor.ts';

/** The management API: HTTP Basic with a key id and secret, and the `{status, requestId, result}` envelope. */
export const MANAGEMENT_API: ApiDescriptor = Object.freeze({
  name: 'management',
  specFile: 'management.yaml',
  auth: Object.freeze({ securityScheme: 'basicAuth', scheme: 'basic' }),
  envelope: Object.freeze({ payload: 'result', status: 'status', requestId: 'requestId' }),
  settings: Object.freeze({
    baseUrl: Object.freeze({ variable: 'MANAGEMENT_BASE_URL', flag: 'management-url' }),
    pathPrefix: '/v1',
    credentials: Object.freeze({ user: 'MANAGEMENT_KEY_ID', password: 'MANAGEMENT_KEY_SECRET' }),
    ids: Object.freeze([
      Object.freeze({ variable: 'ORGANIZATION_ID', flag: 'organization' }),
      Object.freeze({ variable: 'SERVICE_ID', flag: 'service' }),
      Object.freeze({ variable: 'BACKUP_ID', flag: 'backup' }),
    ]),
  }),
  credentialsOf: (config) => config.management && { user: config.management.keyId, password: config.management.keySecret },
} satisfies ApiDescriptor);
