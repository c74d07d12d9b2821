import { isSuccess } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { payload, payloadPath, sameId } from './body.ts';

/** Rules of the backup operation. */
export const backupRules: Rule[] = [
  {
    id: 'backups.identity',
    title: 'The backup returned is the one asked for',
    basis: 'inferred',
    sentence: 'The backup returned is the one asked for (`id` and `serviceId` equal the path ids).',
    probedBy: 'every backup read',
    operations: ['getBackup'],
    applies: (ex) => isSuccess(ex) && payload(ex) !== undefined,
    check: (ex) => {
      const result = payload(ex)!;
      const violations: Violation[] = [];
      if (!sameId(result.id, ex.request.params.backupId))
        violations.push({
          path: `${payloadPath(ex)}/id`,
          expected: `the path backupId ${ex.request.params.backupId}`,
          actual: result.id,
        });
      if (!sameId(result.serviceId, ex.request.params.serviceId))
        violations.push({
          path: `${payloadPath(ex)}/serviceId`,
          expected: `the path serviceId ${ex.request.params.serviceId}`,
          actual: result.serviceId,
        });
      return violations;
    },
  },
];
