import type { Probe } from '../core/probe-types.ts';
import { observe } from '../engine/probe.ts';
import type { ReadOnlyExpectation } from '../rules/access.ts';

/** A time no target sets as `createdAt` or `updatedAt` of what a run creates or updates. */
export const LONG_AGO = '2001-02-03T04:05:06.000Z';

/** The fields only the server writes that pipes and alerts share, each with a value the target would not set. */
export const SHARED_READ_ONLY: readonly { readonly field: string; readonly value: unknown }[] = Object.freeze([
  { field: 'state', value: 'conformance-state' },
  { field: 'createdAt', value: LONG_AGO },
  { field: 'updatedAt', value: LONG_AGO },
]);

/** How many fields only the server writes a resource's writes send, one per request: its id, its owner, the shared. */
export const READ_ONLY_FIELDS = 2 + SHARED_READ_ONLY.length;

/**
 * An observe probe of `access.read-only-fields`: a write that also sends `sent`, whose answer must show the target's
 * values (`kept`, where known) and not the ones sent; with `listed`, the next read of that alert.
 */
export function readOnlyProbe(label: string, expect: ReadOnlyExpectation, more: Partial<Probe> = {}): Probe {
  return observe(label, { rules: ['access.read-only-fields'], expect: { readOnly: expect }, ...more });
}
