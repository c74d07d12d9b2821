import { EVERY_OPERATION, notProbedYet, type Rule } from '../core/rule.ts';

/** The operations whose path names an organization (every operation of the management API). */
const MANAGEMENT_OPERATIONS = Object.freeze([
  'createPipe',
  'updatePipe',
  'getPipeSettings',
  'changeServiceState',
  'createKey',
  'getUsageCost',
  'getBackup',
]);

/** Rules of access: what a path, another tenant's credentials and server-written fields may not reach. */
export const accessRules: Rule[] = [
  notProbedYet(
    {
      id: 'access.path-scoped',
      title: "The path's organization and service scope every operation",
      basis: 'inferred',
      sentence:
        'The path scopes every operation: a request whose path names an organization or service other than the ' +
        "run's, or the run's pipe or backup under another service, is rejected (any 4xx) and changes nothing (the " +
        'pipe reads as before).',
      probedBy:
        'every operation with another `organizationId` (a fresh uuid); pipe create, update and settings read, and ' +
        'the backup read, under another `serviceId`; after each refused pipe update, a settings read of that pipe. ' +
        'The state operation under another organization is `disruptive`',
      operations: MANAGEMENT_OPERATIONS,
    },
    'no probe names another organization or service yet',
  ),
  notProbedYet(
    {
      id: 'access.other-tenant',
      title: "Another tenant's credentials reach none of the run's resources",
      basis: 'inferred',
      sentence:
        'Credentials of another organization (management) or another team (alerts) neither read nor change the ' +
        "run's resources: with them, every operation on the run's organization, service, pipes and backup is " +
        "rejected, an update of the run's alert is rejected, and their alert list holds none of the run's alerts.",
      probedBy:
        "only with a second identity configured (another organization's key, another team's token); without " +
        'one, not judged, with that reason',
      operations: EVERY_OPERATION,
      severity: 'credentials',
    },
    'no probe sends a second identity yet',
  ),
  notProbedYet(
    {
      id: 'access.read-only-fields',
      title: 'Fields only the server writes are not written by a request',
      basis: 'inferred',
      sentence:
        "A write that also sends fields the documents show only in answers (a pipe's `id`, `serviceId`, `state`, " +
        "`createdAt`, `updatedAt`; an alert's `id`, `team`, `state`, `createdAt`, `updatedAt`) is rejected, or " +
        'changes none of them: the answer and every later read show the values the target set.',
      probedBy:
        "observe creates and updates with such fields added (another pipe's id, another service's id, another " +
        'team); if accepted, the answer and the next read',
      operations: ['createPipe', 'updatePipe', 'updateAlert'],
    },
    'no probe sends a field only the server writes yet',
  ),
];
