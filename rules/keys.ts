import { createHash } from 'node:crypto';
import { type Exchange, isSuccess } from '../transport/exchange.ts';
import { rememberingRule, type Rule, type RuleMemory, type Violation } from '../rule-model/rule.ts';
import { asObject, certainBody, payload, payloadPath, probes, requestBody } from './body.ts';
import { CREATES_AT_ONCE } from './concurrent.ts';
import { requestIdOf } from './envelope.ts';
import { intentViolations, pairedParts } from './intent.ts';
import { subsetViolations } from './subset.ts';

const neverExpires = (body: Record<string, unknown> | undefined): boolean =>
  body !== undefined && (!('expireAt' in body) || body.expireAt === null || body.expireAt === '');

/** Which of the three never-expires forms a create body uses, if any. */
function expiryForm(body: Record<string, unknown> | undefined): string | undefined {
  if (body === undefined) return undefined;
  if (!('expireAt' in body)) return 'expireAt absent';
  if (body.expireAt === null) return 'expireAt null';
  return body.expireAt === '' ? 'expireAt empty' : undefined;
}

/** The fields of a created key that no other key of the run may share, where the answer has them. */
const UNIQUE_FIELDS = [
  { field: 'key.id', path: '/key/id', read: (result: Record<string, unknown>) => asObject(result.key)?.id },
  { field: 'keyId', path: '/keyId', read: (result: Record<string, unknown>) => result.keyId },
  { field: 'keySecret', path: '/keySecret', read: (result: Record<string, unknown>) => result.keySecret },
] as const;

/** The values of a create's answer that must be unique, by field. */
function credentialsOf(ex: Exchange): { field: string; path: string; value: string }[] {
  const result = payload(ex);
  if (result === undefined) return [];
  return UNIQUE_FIELDS.flatMap(({ field, path, read }) => {
    const value = read(result);
    return typeof value === 'string' && value !== '' ? [{ field, path, value }] : [];
  });
}

/**
 * The field (`key.id`, `keyId`, `keySecret`) whose value two creates' answers share, and its path in the answer;
 * undefined when they share none.
 */
export function sharedCredential(a: Exchange, b: Exchange): { field: string; path: string } | undefined {
  const theirs = credentialsOf(b);
  const shared = credentialsOf(a).find(({ field, value }) =>
    theirs.some((other) => other.field === field && other.value === value),
  );
  return shared && { field: shared.field, path: `${payloadPath(a)}${shared.path}` };
}

/** A value as the memory keeps it: its SHA-256, so that no secret is held beyond the exchange that carried it. */
const hashOf = (value: string): string => createHash('sha256').update(value).digest('base64');

/** The request that created a key, as a finding names it: its probe and the answer's requestId. */
function createdBy(ex: Exchange): string {
  const id = requestIdOf(ex);
  return `the key created by "${ex.probe.label}"${id === undefined ? '' : ` (requestId ${id})`}`;
}

/** The hashes of each `key.id`, `keyId` and `keySecret` the run's creates answered, by field, with their create. */
const keysSeen: RuleMemory<Map<string, Map<string, string>>> = {
  create: () => new Map(UNIQUE_FIELDS.map(({ field }) => [field, new Map()])),
  answered(seen, exchange) {
    if (exchange.operationId !== 'createKey' || !isSuccess(exchange)) return;
    for (const { field, value } of credentialsOf(exchange)) {
      const byHash = seen.get(field)!;
      const hash = hashOf(value);
      if (!byHash.has(hash)) byHash.set(hash, createdBy(exchange));
    }
  },
};

/** Rules of the create-key operation. */
export const keyRules: Rule[] = [
  {
    id: 'keys.roles-minimum',
    title: 'A key needs at least one role',
    basis: 'stated',
    sentence: 'A create with an empty `roles` list is rejected; one with one or more roles is accepted.',
    probedBy: 'paired creates',
    operations: ['createKey'],
    ...pairedParts('one or more roles accepted', 'empty roles rejected'),
    applies: (ex) => probes(ex, 'keys.roles-minimum') && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'keys.roles-enum',
    title: 'Roles are admin, developer, query_endpoints',
    basis: 'stated',
    sentence: 'A role outside `admin`, `developer`, `query_endpoints` is rejected.',
    probedBy: 'invalid creates',
    operations: ['createKey'],
    ...pairedParts(undefined, 'an unknown role rejected'),
    applies: (ex) => probes(ex, 'keys.roles-enum') && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'keys.credentials-returned',
    title: 'A created key returns its credentials and echoes name and roles',
    basis: 'stated',
    sentence:
      'A created key returns non-empty `keyId` and `keySecret`, and `key` echoes the name, roles and `ipAccessList` ' +
      'sent, and an `expireAt` sent as the same instant (in any offset).',
    probedBy: 'every create',
    operations: ['createKey'],
    applies: (ex) => isSuccess(ex) && certainBody(ex) !== undefined && asObject(ex.response?.json) !== undefined,
    check: (ex, ctx) => {
      const result = payload(ex);
      const body = certainBody(ex)!;
      const violations: Violation[] = [];
      for (const field of ['keyId', 'keySecret']) {
        const value = result?.[field];
        if (typeof value !== 'string' || value === '')
          violations.push({
            path: `${payloadPath(ex)}/${field}`,
            expected: 'a non-empty string',
            actual: field === 'keySecret' && value ? '[redacted]' : value,
          });
      }
      const key = asObject(result?.key);
      // An empty allow list may come back absent: "an optional IP allow list" reads the same either way.
      const allowList =
        Array.isArray(body.ipAccessList) && body.ipAccessList.length > 0 ? body.ipAccessList : undefined;
      // An expireAt sent is the same stored instant, in any offset, at the precision the target keeps.
      const expireAt = typeof body.expireAt === 'string' && body.expireAt !== '' ? body.expireAt : undefined;
      const echoed = { name: body.name, roles: body.roles, ipAccessList: allowList, expireAt };
      violations.push(...subsetViolations(echoed, key, `${payloadPath(ex)}/key`, ctx.operation.requestSchema));
      return violations;
    },
  },
  rememberingRule({
    id: 'keys.credentials-unique',
    title: 'No two keys of a run share an id or a credential',
    basis: 'inferred',
    sentence:
      'No two keys created in a run share a `key.id`, a `keyId` or a `keySecret`, also when they were created at ' +
      'once.',
    probedBy: 'every create; creates sent at once',
    operations: ['createKey'],
    severity: 'credentials',
    parts: [{ name: 'every create' }, { name: CREATES_AT_ONCE }],
    partOf: (ex) => (ex.probe.part === CREATES_AT_ONCE ? CREATES_AT_ONCE : 'every create'),
    memory: keysSeen,
    applies: (ex) => isSuccess(ex) && asObject(payload(ex)) !== undefined,
    check: (ex, ctx, seen) => {
      if (ctx.again) return [];
      return credentialsOf(ex).flatMap(({ field, path, value }) => {
        const earlier = seen.get(field)?.get(hashOf(value));
        return earlier === undefined
          ? []
          : [
              {
                path: `${payloadPath(ex)}${path}`,
                expected: `a \`${field}\` no earlier key of the run has`,
                actual: `the same as that of ${earlier}${field === 'keySecret' ? ' ([redacted])' : ''}`,
              },
            ];
      });
    },
  }),
  {
    id: 'keys.never-expires',
    title: 'A key created without expiry never expires',
    basis: 'stated',
    sentence:
      'A create with `expireAt` absent, null or empty returns a key with no expiry (`expireAt` null or absent).',
    probedBy: 'the three forms',
    operations: ['createKey'],
    parts: [{ name: 'expireAt absent' }, { name: 'expireAt null' }, { name: 'expireAt empty' }],
    partOf: (ex) => expiryForm(requestBody(ex)),
    applies: (ex) =>
      (probes(ex, 'keys.never-expires') && ex.response !== undefined) ||
      (isSuccess(ex) && neverExpires(requestBody(ex)) && asObject(payload(ex)?.key) !== undefined),
    check: (ex) => {
      const rejected = probes(ex, 'keys.never-expires') ? intentViolations(ex) : [];
      if (rejected.length > 0 || !isSuccess(ex)) return rejected;
      const expireAt = asObject(payload(ex)?.key)?.expireAt;
      return expireAt === undefined || expireAt === null
        ? []
        : [
            {
              path: `${payloadPath(ex)}/key/expireAt`,
              expected: 'null or absent (the key never expires)',
              actual: expireAt,
            },
          ];
    },
  },
];
