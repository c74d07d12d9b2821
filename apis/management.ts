import { describeApi, type TargetOf } from './descriptor.ts';

/** The management API: HTTP Basic with a key id and secret, and the `{status, requestId, result}` envelope. */
export const MANAGEMENT_API = describeApi({
  name: 'management',
  specFile: 'management.yaml',
  auth: { securityScheme: 'basicAuth', scheme: 'basic' },
  envelope: { payload: 'result', status: 'status', requestId: 'requestId' },
  settings: {
    baseUrl: { variable: 'MANAGEMENT_BASE_URL', flag: 'management-url' },
    pathPrefix: '/v1',
    credentials: {
      about: 'HTTP Basic credentials',
      user: { variable: 'MANAGEMENT_KEY_ID', field: 'keyId', about: 'management API key id (HTTP Basic user)' },
      password: {
        variable: 'MANAGEMENT_KEY_SECRET',
        field: 'keySecret',
        about: 'management API key secret (HTTP Basic password)',
      },
    },
    ids: [
      {
        variable: 'ORGANIZATION_ID',
        flag: 'organization',
        field: 'organizationId',
        required: true,
        pathParameter: true,
        about: 'organization to run against',
      },
      {
        variable: 'SERVICE_ID',
        flag: 'service',
        field: 'serviceId',
        required: true,
        pathParameter: true,
        about: 'service that owns the pipes the run creates',
      },
      {
        variable: 'BACKUP_ID',
        flag: 'backup',
        field: 'backupId',
        required: false,
        pathParameter: true,
        about: 'a backup of that service (else the backup operation is skipped)',
      },
    ],
  },
});

/** Where and as whom the management API is reached. */
export type ManagementTarget = TargetOf<typeof MANAGEMENT_API>;
