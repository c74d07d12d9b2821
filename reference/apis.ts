import { ALERTS_REFERENCE } from './alerts.ts';
import { MANAGEMENT_REFERENCE } from './management.ts';
import type { ReferenceApi } from './reference-api.ts';

/** Every API the reference target serves, each on a port of its own: the one list an API is added to here. */
export const REFERENCE_APIS: readonly ReferenceApi[] = Object.freeze([MANAGEMENT_REFERENCE, ALERTS_REFERENCE]);
