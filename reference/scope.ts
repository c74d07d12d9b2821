import { problem, type Problem } from './problem.ts';
import type { Call } from './route.ts';
import { organizationsOf, type AlertRecord, type Organization, type PipeRecord } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tells whether a string is a uuid of any version, in either case. */
export function isAnyUuid(value: string): boolean {
  return UUID.test(value);
}

/** Checks that a path parameter is a uuid equal (case-insensitively) to the expected id. */
export function checkPathId(name: string, value: string | undefined, expected: string): Problem[] {
  if (value === undefined || !isAnyUuid(value)) return [problem(name, 'format', `${name} must be a uuid`)];
  if (value.toLowerCase() !== expected.toLowerCase()) {
    return [problem(name, 'not-found', `${name} ${value} was not found`, 404)];
  }
  return [];
}

/** The organization a management call acts on: the path's, when the call's key may act there. */
export function organizationOf(call: Call): Organization | undefined {
  const all = organizationsOf(call.store);
  const own = all.find((o) => o.organizationId === call.principal.organizationId);
  if (!call.scope.organization) return own;
  const named = all.find((o) => sameId(o.organizationId, call.params.organizationId));
  return named === own || !call.scope.keyOrganization ? named : undefined;
}

/** Checks the organization of a management path: a uuid that names the key's own organization. */
export function checkOrganization(call: Call): Problem[] {
  const id = call.params.organizationId;
  if (id === undefined || !isAnyUuid(id)) return [problem('organizationId', 'format', 'organizationId must be a uuid')];
  return organizationOf(call) === undefined
    ? [problem('organizationId', 'not-found', `organizationId ${id} was not found`, 404)]
    : [];
}

/**
 * Checks the organization and service of a management path; `unless` names the scope check that, when a fault turns it
 * off, lets any serviceId through.
 */
export function checkService(call: Call, unless?: 'pipeService' | 'backupService'): Problem[] {
  const found = checkOrganization(call);
  if (found.length > 0) return found;
  const id = call.params.serviceId;
  if (id === undefined || !isAnyUuid(id)) return [problem('serviceId', 'format', 'serviceId must be a uuid')];
  if (unless !== undefined && !call.scope[unless]) return [];
  return sameId(organizationOf(call)?.serviceId, id)
    ? []
    : [problem('serviceId', 'not-found', `serviceId ${id} was not found`, 404)];
}

/** Finds the pipe a path names under its organization's service. */
export function findPipe(call: Call): PipeRecord | undefined {
  const pipe = call.store.pipes.get((call.params.pipeId ?? '').toLowerCase());
  const serviceId = organizationOf(call)?.serviceId;
  if (pipe === undefined || pipe.serviceId !== serviceId) return undefined;
  return !call.scope.pipeService || sameId(pipe.serviceId, call.params.serviceId) ? pipe : undefined;
}

/** Checks the organization, service and pipe of a pipe path. */
export function checkPipe(call: Call): Problem[] {
  const found = checkService(call, 'pipeService');
  if (found.length > 0) return found;
  const pipeId = call.params.pipeId ?? '';
  if (!isAnyUuid(pipeId)) return [problem('pipeId', 'format', 'pipeId must be a uuid')];
  return findPipe(call) === undefined ? [problem('pipeId', 'not-found', `pipe ${pipeId} was not found`, 404)] : [];
}

/** The alerts a call may see: its team's, or every team's when a fault turns the check off. */
export function visibleAlerts(call: Call): AlertRecord[] {
  return [...call.store.alerts.values()].filter((alert) => !call.scope.team || alert.team === call.principal.team);
}

const sameId = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
