import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { dateTime } from './dateTime.ts';
import { ipAccessList, type IpAccessEntry } from './ipAccessList.ts';
import { type KeyHashData, keyHashData } from './keyHashData.ts';

/** The three documented key roles. */
export const KEY_ROLES = Object.freeze(['admin', 'developer', 'query_endpoints'] as const);

/** A key create body. */
export type KeyCreateBody = {
  name: string;
  roles: string[];
  state?: 'enabled' | 'disabled';
  expireAt?: string | null;
  hashData?: KeyHashData;
  ipAccessList?: IpAccessEntry[];
};

/** Which expiry a generated key has: none (absent, null or empty), within a day, or any of those or a later date. */
export type KeyExpiry = 'never' | 'withinDay' | 'any';

const HOUR = 3_600_000;
const NEVER = Symbol('never');
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const NAME_SUFFIX = lazy(() => fc.stringMatching(/^[a-z0-9]{4,12}$/));
const HASH_DATA = keyHashData();

function expiry(kind: KeyExpiry, now: number): fc.Arbitrary<string | null | undefined> {
  const base = Math.ceil(now / 1000) * 1000;
  const at = (minMs: number, maxMs: number): fc.Arbitrary<string> =>
    fc
      .tuple(
        fc.integer({ min: minMs / 1000, max: maxMs / 1000 - 2 }),
        fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 999 }) }),
      )
      .chain(([seconds, ms]) => dateTime({ at: base + seconds * 1000 + ms }));
  const never = fc.constantFrom(undefined, null, '');
  const withinDay = at(HOUR, 23 * HOUR);
  if (kind === 'never') return never;
  if (kind === 'withinDay') return withinDay;
  return fc.oneof(never, withinDay, at(23 * HOUR, 365 * 24 * HOUR));
}

/**
 * Complete key create bodies: name, a non-empty unique subset of the roles, `state` (default `disabled`), `expireAt`
 * per `expiry` relative to `now` (default `withinDay`: between now+1h and now+23h; `never` sends it absent, null or
 * empty, the three forms the document states), `hashData` (unless `hashData: false`) and `ipAccessList`; `now` defaults
 * to the time the arbitrary is built.
 */
export function keyCreateBody(
  constraints: { state?: 'enabled' | 'disabled'; expiry?: KeyExpiry; now?: Date; hashData?: boolean } = {},
): fc.Arbitrary<KeyCreateBody> {
  const { state = 'disabled', expiry: kind = 'withinDay', now = new Date(), hashData = true } = constraints;
  return fc
    .record({
      name: NAME_SUFFIX.map((suffix) => `conformance-${suffix}`),
      roles: fc.shuffledSubarray([...KEY_ROLES], { minLength: 1 }),
      expireAt: expiry(kind, now.getTime()).map((value) => (value === undefined ? NEVER : value)),
      hashData: hashData ? HASH_DATA : fc.constant(undefined),
      ipAccessList: ipAccessList(),
    })
    .map(
      ({ name, roles, expireAt, hashData: hashes, ipAccessList: list }): KeyCreateBody => ({
        name,
        roles,
        state,
        ...(expireAt === NEVER ? {} : { expireAt }),
        ...(hashes ? { hashData: hashes } : {}),
        ipAccessList: list,
      }),
    );
}
