import { randomUUID } from 'node:crypto';
import { isObject, type Json, type JsonObject } from './json.ts';
import { problem, type Problem } from './problem.ts';
import type { Route } from './route.ts';
import { checkOrganization, organizationOf } from './scope.ts';
import { hashSecret, newKeyId, newKeySecret, type KeyRecord } from './store.ts';
import { parseDateTime } from './timestamp.ts';
import { arr, check, obj, project, required, str, type FieldSpec } from './validate.ts';

/** The roles a key may have. */
export const KEY_ROLES = Object.freeze(['admin', 'developer', 'query_endpoints'] as const);

const IP_ACCESS_LIST_SPEC: FieldSpec = arr(obj({ source: str(), description: str() }));

/** The key create body, `expireAt` aside (its absence means no expiry). */
export const KEY_SPEC: FieldSpec = obj({
  name: required(str()),
  roles: required(arr(str({ enum: KEY_ROLES }), 1)),
  state: str({ enum: ['enabled', 'disabled'] }),
  hashData: obj({ keyIdHash: str(), keyIdSuffix: str(), keySecretHash: str() }),
  ipAccessList: IP_ACCESS_LIST_SPEC,
});

/** POST .../keys: creates an API key and returns its credentials once. */
export const createKey: Route = {
  method: 'POST',
  path: ['v1', 'organizations', ':organizationId', 'keys'],
  operation: 'createKey',
  hasBody: true,
  check: (call) => {
    const scope = checkOrganization(call);
    if (scope.length > 0) return scope;
    const found = check(KEY_SPEC, call.body, '');
    if (isObject(call.body)) found.push(...checkExpireAt(call.body.expireAt));
    return found;
  },
  apply: (call) => {
    const body = isObject(call.body) ? call.body : {};
    const keyId = newKeyId();
    const keySecret = newKeySecret();
    const record: KeyRecord = {
      id: randomUUID(),
      organizationId: organizationOf(call)!.organizationId,
      keyId,
      secretHash: hashSecret(keySecret),
      name: typeof body.name === 'string' ? body.name : '',
      roles: Array.isArray(body.roles) ? body.roles.filter((role): role is string => typeof role === 'string') : [],
      state: body.state === 'disabled' ? 'disabled' : 'enabled',
      expireAt: expiry(body.expireAt),
      createdAt: call.now.toISOString(),
      ipAccessList: (project(IP_ACCESS_LIST_SPEC, body.ipAccessList ?? []) as Json[]).filter(isObject),
    };
    if (call.persist) call.store.keys.set(keyId, record);
    return { kind: 'ok', result: { key: presentKey(record), keyId, keySecret } };
  },
};

/** The response form of a key; `usedAt` appears once the key has been used. */
export function presentKey(key: KeyRecord): JsonObject {
  return {
    id: key.id,
    name: key.name,
    roles: [...key.roles],
    keySuffix: key.keyId.slice(-4),
    createdAt: key.createdAt,
    expireAt: key.expireAt,
    ...(key.usedAt === undefined ? {} : { usedAt: key.usedAt }),
    ipAccessList: structuredClone(key.ipAccessList),
    state: key.state,
  };
}

function checkExpireAt(value: Json | undefined): Problem[] {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value !== 'string') return [problem('expireAt', 'type', 'expireAt must be a date-time string or null')];
  return parseDateTime(value) === undefined
    ? [problem('expireAt', 'format', 'expireAt must be an RFC 3339 date-time')]
    : [];
}

function expiry(value: Json | undefined): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const parsed = parseDateTime(value);
  return parsed === undefined ? null : new Date(parsed.instantMs).toISOString();
}
