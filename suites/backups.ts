import { randomUUID } from 'node:crypto';
import type { RunConfig } from '../settings/config.ts';
import { accessGroups, type AccessTarget } from './access-groups.ts';
import { authGroups } from './auth-group.ts';
import { neighbourhoodGroups } from './neighbourhood.ts';
import { accept, reject } from '../engine/probe.ts';
import type { SuiteDefinition } from '../engine/suite-types.ts';

const NO_BACKUP = 'BACKUP_ID (--backup) is not set: name a backup of the service to probe the backup operation';

const needsBackup = (config: RunConfig): string | undefined =>
  config.management?.backupId || config.reference ? undefined : NO_BACKUP;

/** The configured backup's read, for the credential and access probes. */
const BACKUP_TARGET: AccessTarget = {
  operationId: 'getBackup',
  api: 'management',
  scope: 'service',
  requires: needsBackup,
  request: (context) =>
    context.config.management?.backupId
      ? { params: { backupId: context.config.management.backupId } }
      : { unable: NO_BACKUP },
};

/** The backup suite: reads of the configured backup, unknown and malformed ids, credentials. */
export function backupsSuite(): SuiteDefinition {
  return {
    name: 'backups',
    operations: ['getBackup'],
    groups: [
      {
        name: 'read the configured backup',
        operations: ['getBackup'],
        requires: needsBackup,
        estimate: () => 2,
        async run(context) {
          await Promise.all([1, 2].map((n) => context.send('getBackup', { probe: accept(`read backup (${n})`) })));
        },
      },
      {
        name: 'unknown and malformed backup ids',
        operations: ['getBackup'],
        estimate: () => 2,
        async run(context) {
          await context.send('getBackup', { params: { backupId: randomUUID() }, probe: reject('an unknown backupId') });
          await context.send('getBackup', {
            params: { backupId: 'not-a-uuid' },
            probe: reject('a backupId that is not a uuid'),
          });
        },
      },
      ...authGroups([BACKUP_TARGET]),
      ...accessGroups([BACKUP_TARGET]),
      ...neighbourhoodGroups([{ operationId: 'getBackup', request: (context) => BACKUP_TARGET.request(context) }]),
    ],
  };
}
