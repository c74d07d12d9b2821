import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { keyCreateBody, type KeyCreateBody } from './keyCreateBody.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';

const DOCUMENTED = new Set(['admin', 'developer', 'query_endpoints']);

const UNKNOWN_ROLES = Object.freeze([
  'owner',
  'ADMIN',
  'Admin',
  'superuser',
  '',
  'query-endpoints',
  'queryEndpoints',
  ' admin',
  'developer ',
  'root',
  'read_only',
]);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ROLE_LIKE = lazy(() => fc.stringMatching(/^[a-z_]{1,16}$/)).filter((role) => !DOCUMENTED.has(role));

/**
 * Key create bodies, disabled and expiring within a day, with one role outside `admin`, `developer`, `query_endpoints`,
 * alone or among documented roles.
 */
export const keyCreateBodyUnknownRole: InvalidGenerator<KeyCreateBody, { now?: Date }> = Object.freeze({
  breaks: 'keys.roles-enum',
  description:
    'a key create body with one role outside the documented enum, otherwise valid, disabled and expiring within a day',
  arbitrary: (constraints: { now?: Date } = {}) =>
    keyCreateBody({ ...constraints, state: 'disabled', expiry: 'withinDay' }).chain((body) =>
      fc
        .record(
          {
            role: fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(...UNKNOWN_ROLES) },
              { weight: 1, arbitrary: ROLE_LIKE },
            ),
            keep: fc.subarray(body.roles),
            at: fc.nat(),
          },
          { noNullPrototype: true },
        )
        .map(({ role, keep, at }): KeyCreateBody => {
          const index = at % (keep.length + 1);
          return { ...body, roles: [...keep.slice(0, index), role, ...keep.slice(index)] };
        }),
    ),
  witness: (body: KeyCreateBody) => Array.isArray(body.roles) && body.roles.some((role) => !DOCUMENTED.has(role)),
});
