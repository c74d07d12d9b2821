import { keyCreateBody, type KeyCreateBody } from './keyCreateBody.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';

/** Key create bodies, disabled and expiring within a day, whose `roles` list is empty. */
export const keyCreateBodyEmptyRoles: InvalidGenerator<KeyCreateBody, { now?: Date }> = Object.freeze({
  breaks: 'keys.roles-minimum',
  description: 'a key create body with `roles: []`, otherwise valid, disabled and expiring within a day',
  arbitrary: (constraints: { now?: Date } = {}) =>
    keyCreateBody({ ...constraints, state: 'disabled', expiry: 'withinDay' }).map(
      (body): KeyCreateBody => ({ ...body, roles: [] }),
    ),
  witness: (body: KeyCreateBody) => Array.isArray(body.roles) && body.roles.length === 0,
});
