import { copyJson } from './json.ts';
import type { Route } from './route.ts';
import { checkPathId, checkService, organizationOf } from './scope.ts';

/** GET .../services/{serviceId}/backups/{backupId}: reads the service's backup. */
export const getBackup: Route = {
  method: 'GET',
  path: ['v1', 'organizations', ':organizationId', 'services', ':serviceId', 'backups', ':backupId'],
  operation: 'getBackup',
  hasBody: false,
  check: (call) => {
    const scope = checkService(call, 'backupService');
    return scope.length > 0 ? scope : checkPathId('backupId', call.params.backupId, organizationOf(call)!.backupId);
  },
  apply: (call) => ({ kind: 'ok', result: copyJson(organizationOf(call)!.backup) }),
};
