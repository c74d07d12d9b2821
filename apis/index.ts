import type { ApiDescriptor, Credentials } from '../core/api-descriptor.ts';
import type { RunConfig } from '../core/config.ts';
import type { ApiName } from '../core/spec.ts';
import { ALERTS_API } from './alerts.ts';
import { MANAGEMENT_API } from './management.ts';

/** The descriptor of each API, in the order runs and reports list them. */
export const APIS: Readonly<Record<ApiName, ApiDescriptor>> = Object.freeze({ management: MANAGEMENT_API, alerts: ALERTS_API });

/** Every API's descriptor, in order. */
export const API_LIST: readonly ApiDescriptor[] = Object.freeze(Object.values(APIS));

/** The run's credentials of each API it targets. */
export function runCredentials(config: RunConfig): Partial<Record<ApiName, Credentials>> {
  const credentials: Partial<Record<ApiName, Credentials>> = {};
  for (const api of API_LIST) {
    const given = api.credentialsOf(config);
    if (given) credentials[api.name] = given;
  }
  return credentials;
}
