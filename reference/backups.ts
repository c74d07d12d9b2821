import { copyJson } from './json.ts';
import type { Route } from './route.ts';
import { checkPathId, checkService } from './scope.ts';

/** GET .../services/{serviceId}/backups/{backupId}: reads the service's backup. */
export const getBackup: Route = {
  method: 'GET',
  path: ['v1', 'organizations', ':organizationId', 'services', ':serviceId', 'backups', ':backupId'],
  operation: 'getBackup',
  hasBody: false,
  check: (call) => {
    const scope = checkService(call.params, call.store);
    return scope.length > 0 ? scope : checkPathId('backupId', call.params.backupId, call.store.backupId);
  },
  apply: (call) => ({ kind: 'ok', result: copyJson(call.store.backup) }),
};
