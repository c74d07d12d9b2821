import { problem, type Problem } from './problem.ts';
import type { PipeRecord, Store } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Tells whether a string is a uuid of any version, in either case. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Checks that a path parameter is a uuid equal (case-insensitively) to the expected id. */
export function checkPathId(name: string, value: string | undefined, expected: string): Problem[] {
  if (value === undefined || !isUuid(value)) return [problem(name, 'format', `${name} must be a uuid`)];
  if (value.toLowerCase() !== expected.toLowerCase()) {
    return [problem(name, 'not-found', `${name} ${value} was not found`, 404)];
  }
  return [];
}

/** Checks the organization of a management path. */
export function checkOrganization(params: Readonly<Record<string, string>>, store: Store): Problem[] {
  return checkPathId('organizationId', params.organizationId, store.organizationId);
}

/** Checks the organization and service of a management path. */
export function checkService(params: Readonly<Record<string, string>>, store: Store): Problem[] {
  const found = checkOrganization(params, store);
  return found.length > 0 ? found : checkPathId('serviceId', params.serviceId, store.serviceId);
}

/** Finds the pipe a path names under its service. */
export function findPipe(params: Readonly<Record<string, string>>, store: Store): PipeRecord | undefined {
  const pipe = store.pipes.get((params.pipeId ?? '').toLowerCase());
  return pipe !== undefined && pipe.serviceId.toLowerCase() === (params.serviceId ?? '').toLowerCase()
    ? pipe
    : undefined;
}

/** Checks the organization, service and pipe of a pipe path. */
export function checkPipe(params: Readonly<Record<string, string>>, store: Store): Problem[] {
  const found = checkService(params, store);
  if (found.length > 0) return found;
  const pipeId = params.pipeId ?? '';
  if (!isUuid(pipeId)) return [problem('pipeId', 'format', 'pipeId must be a uuid')];
  return findPipe(params, store) === undefined
    ? [problem('pipeId', 'not-found', `pipe ${pipeId} was not found`, 404)]
    : [];
}
