import { copyJson } from './json.ts';
import type { Route } from './route.ts';
import { checkService, organizationOf } from './scope.ts';
import { check, obj, required, str } from './validate.ts';

/** The commands of the state operation. */
export const SERVICE_COMMANDS = Object.freeze(['start', 'stop'] as const);

const STATE_SPEC = obj({ command: required(str({ enum: SERVICE_COMMANDS })) });

/** PATCH .../services/{serviceId}/state: starts or stops the service and returns it. */
export const changeServiceState: Route = {
  method: 'PATCH',
  path: ['v1', 'organizations', ':organizationId', 'services', ':serviceId', 'state'],
  operation: 'changeServiceState',
  hasBody: true,
  check: (call) => {
    const scope = checkService(call);
    return scope.length > 0 ? scope : check(STATE_SPEC, call.body, '');
  },
  apply: (call) => {
    const command =
      typeof call.body === 'object' && call.body !== null && !Array.isArray(call.body) ? call.body.command : undefined;
    const organization = organizationOf(call)!;
    const service = { ...organization.service, state: command === 'stop' ? 'stopped' : 'running' };
    if (call.persist) organization.service = service;
    return { kind: 'ok', result: copyJson(service) };
  },
};
