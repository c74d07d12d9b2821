import { describeApi, type TargetOf } from './descriptor.ts';

const DAY_MS = 86_400_000;

/** A time as the usage query takes it, to the second. */
const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The usage query of the day before yesterday (UTC): a period the target has closed. */
function pastDay(now: Date): Readonly<Record<string, string>> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from_date: isoSeconds(today - 2 * DAY_MS), to_date: isoSeconds(today - DAY_MS) };
}

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
        label: 'organization',
        format: 'uuid',
        about: 'organization to run against',
      },
      {
        variable: 'SERVICE_ID',
        flag: 'service',
        field: 'serviceId',
        required: true,
        pathParameter: true,
        label: 'service',
        format: 'uuid',
        unknownWhen: {
          operationId: 'createPipe',
          proves: 'service',
          notFound: (w) =>
            `${w.name('serviceId')} ${w.target.serviceId} is not a service the management API knows in ` +
            `organization ${w.target.organizationId} (the one pipe create sent to confirm it, before any probe: ` +
            `${w.seen}): check ${w.name('serviceId')}.`,
          message: (notFound, name) =>
            `all ${notFound} pipe creates got 404: ${name} is not a service of the organization that the ` +
            `management API knows; check ${name}.`,
        },
        about: 'service that owns the pipes the run creates',
      },
      {
        variable: 'BACKUP_ID',
        flag: 'backup',
        field: 'backupId',
        required: false,
        pathParameter: true,
        label: 'backup',
        format: 'uuid',
        about: 'a backup of that service (else the backup operation is skipped)',
      },
    ],
    other: {
      about: "another organization's key and id (access.other-tenant; all or none)",
      credentials: {
        about: 'HTTP Basic credentials of a key of another organization',
        user: {
          variable: 'OTHER_MANAGEMENT_KEY_ID',
          field: 'otherKeyId',
          about: 'management API key id of another organization',
        },
        password: {
          variable: 'OTHER_MANAGEMENT_KEY_SECRET',
          field: 'otherKeySecret',
          about: 'management API key secret of another organization',
        },
      },
      ids: [
        {
          variable: 'OTHER_ORGANIZATION_ID',
          field: 'otherOrganizationId',
          for: 'organizationId',
          about: 'organization of that key',
        },
      ],
    },
  },
  preflight: [
    {
      operationId: 'getUsageCost',
      ids: ['organizationId'],
      query: pastDay,
      gets: 'usageCost of the past day',
      proves: 'credentials, organization',
      refused: (w) =>
        `The management API refused the key (${w.seen}): check that ${w.credentials} are a key of organization ` +
        `${w.target.organizationId}, enabled and not expired` +
        `${w.status === 403 ? ', with a role that may read usage costs' : ''}.`,
      notFound: {
        notTheApi: (w) =>
          `${w.baseUrlVariable} (${w.baseUrl}) answers, but not as the management API (${w.seen}, with the key ` +
          `and without it): set ${w.baseUrlVariable} to the URL under which the API's ${w.pathPrefix}/... paths ` +
          `are served (or, if it is right, check ${w.name('organizationId')}).`,
        unknownIds: (w) =>
          `${w.name('organizationId')} ${w.target.organizationId} is not an organization the management API ` +
          `knows (${w.seen}, and ${w.anonymous} without the key): check ${w.name('organizationId')}, or that ` +
          `${w.baseUrlVariable} is the URL under which ${w.pathPrefix}/... is served.`,
      },
    },
    {
      operationId: 'getBackup',
      ids: ['serviceId', 'backupId'],
      gets: 'the backup',
      proves: 'service and backup',
      leftOut: {
        line:
          'SERVICE_ID unchecked (the API has no read of a service, and the run sends no pipe create to confirm it: ' +
          'an unknown one shows as a 404 on every pipe create)',
        plan:
          'Without BACKUP_ID no read can check SERVICE_ID: when the run creates pipes, the preflight sends one pipe ' +
          'create after its GETs, alone, and its 404 stops the run with exit code 2 before any probe.',
      },
      refused: (w) =>
        `The management API refused the key on the backup read (${w.seen}): check ${w.credentials}, and that the ` +
        `key has a role that may read backups of service ${w.target.serviceId}.`,
      notFound: {
        unknownIds: (w) =>
          `${w.name('backupId')} ${w.target.backupId} is not a backup the management API knows under service ` +
          `${w.target.serviceId} (${w.seen}): check ${w.name('backupId')} (a backup of that service) and ` +
          `${w.name('serviceId')}, or unset ${w.name('backupId')} to leave the backup read out.`,
      },
    },
  ],
  leftChanged: [
    {
      allow: 'disruptive',
      warning: (target) =>
        `service ${target.serviceId} may have been sent \`stop\` and not \`start\`: check it and start it by ` +
        'hand if it is stopped.',
    },
  ],
});

/** Where and as whom the management API is reached. */
export type ManagementTarget = TargetOf<typeof MANAGEMENT_API>;
