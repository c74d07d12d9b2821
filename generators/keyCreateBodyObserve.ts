import type * as fc from 'fast-check';
import { keyCreateBody, type KeyCreateBody } from './keyCreateBody.ts';
import { observeVariant } from './observeVariant.ts';

/**
 * Fields an observe key keeps as they are: documented roles, and `disabled` with an expiry within a day, so that a key
 * the target accepts is harmless.
 */
const FIXED = new Set<string | number>(['roles', 'state', 'expireAt']);

/**
 * Observe key create bodies: disabled, expiring within a day of `now`, with documented roles, and otherwise a complete
 * body with some of name, hashData (or its parts) and ipAccessList (or its entries' parts) left out, and some of those
 * strings given unusual values (empty, non-ASCII, long, not hex).
 */
export function keyCreateBodyObserve(constraints: { now?: Date } = {}): fc.Arbitrary<Partial<KeyCreateBody>> {
  return keyCreateBody({ ...constraints, state: 'disabled', expiry: 'withinDay' }).chain((body) =>
    observeVariant(body, { droppable: (path) => !FIXED.has(path[0] ?? ''), open: (path) => !FIXED.has(path[0] ?? '') }),
  );
}
