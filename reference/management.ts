import { verifyBasic } from './auth.ts';
import { createKey } from './keys.ts';
import { createPipe, getPipeSettings, updatePipe } from './pipes.ts';
import type { ReferenceApi } from './reference-api.ts';
import type { Route } from './route.ts';
import { changeServiceState } from './service-state.ts';
import { getBackup } from './backups.ts';
import { getUsageCost } from './usage.ts';

/** The routes of the management API, all under `/v1`. */
export const MANAGEMENT_ROUTES: readonly Route[] = Object.freeze([
  createPipe,
  updatePipe,
  getPipeSettings,
  changeServiceState,
  createKey,
  getUsageCost,
  getBackup,
]);

/** The management API as the reference target serves it: HTTP Basic keys, and the `{status, requestId}` envelope. */
export const MANAGEMENT_REFERENCE: ReferenceApi = Object.freeze<ReferenceApi>({
  name: 'management',
  routes: MANAGEMENT_ROUTES,
  verify: verifyBasic,
  challenge: 'Basic realm="management"',
  enveloped: true,
  portOption: 'managementPort',
  settings: (store, baseUrl) => ({
    MANAGEMENT_BASE_URL: baseUrl,
    MANAGEMENT_KEY_ID: store.managementKeyId,
    MANAGEMENT_KEY_SECRET: store.managementKeySecret,
    ORGANIZATION_ID: store.organizationId,
    SERVICE_ID: store.serviceId,
    BACKUP_ID: store.backupId,
    OTHER_ORGANIZATION_ID: store.other.organizationId,
    OTHER_MANAGEMENT_KEY_ID: store.other.managementKeyId,
    OTHER_MANAGEMENT_KEY_SECRET: store.other.managementKeySecret,
  }),
});
