import { randomUUID } from 'node:crypto';
import { authGroup } from './support/auth-group.ts';
import { accept, reject } from './support/probe.ts';
import type { SuiteDefinition } from './support/suite-types.ts';

const needsBackup = (config: { management?: { backupId?: string }; reference?: unknown }): string | undefined =>
  config.management?.backupId || config.reference ? undefined : 'BACKUP_ID (--backup) is not set: name a backup of the service to probe the backup operation';

/** The backup suite: reads of the configured backup, unknown and malformed ids, credentials. */
export function backupsSuite(): SuiteDefinition {
  return {
    name: 'backups',
    operations: ['getBackup'],
    groups: [
      {
        name: 'read the configured backup',
        klass: 'read',
        operations: ['getBackup'],
        requires: needsBackup,
        estimate: () => 2,
        async run(context) {
          await Promise.all([1, 2].map((n) => context.send('getBackup', { probe: accept('read', `read backup (${n})`) })));
        },
      },
      {
        name: 'unknown and malformed backup ids',
        klass: 'read',
        operations: ['getBackup'],
        estimate: () => 2,
        async run(context) {
          await context.send('getBackup', { params: { backupId: randomUUID() }, probe: reject('an unknown backupId') });
          await context.send('getBackup', { params: { backupId: 'not-a-uuid' }, probe: reject('a backupId that is not a uuid') });
        },
      },
      authGroup([{ operationId: 'getBackup', api: 'management', request: (context) => ({ params: { backupId: context.config.management?.backupId ?? randomUUID() } }) }]),
    ],
  };
}
