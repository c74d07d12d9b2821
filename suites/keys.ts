import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  keyCreateBody,
  keyCreateBodyEmptyRoles,
  keyCreateBodyObserve,
  keyCreateBodyUnknownRole,
} from '../generators/index.ts';
import { dateTimeAt } from '../generators/dateTime.ts';
import { hashDataOf } from '../generators/keyHashData.ts';
import { TEXT_SAMPLES } from './text-samples.ts';
import { accessGroups, type AccessTarget } from './access-groups.ts';
import { authGroups, malformedJsonGroups } from './auth-group.ts';
import { accept, fromExample, observe, randomToken, reject } from '../engine/probe.ts';
import { randomUUID } from 'node:crypto';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import { LONG_AGO, readOnlyProbe } from './read-only-fields.ts';
import { neighbourhoodGroups } from './neighbourhood.ts';
import type { Example, JudgedExchange, SuiteContext, ProbeGroup, SuiteDefinition } from '../engine/suite-types.ts';
import type { Probe } from '../core/probe-types.ts';
import { CREATES_AT_ONCE, overlapped } from '../rules/concurrent.ts';
import { CREDENTIAL_FORMS } from '../rules/request.ts';
import { sharedCredential } from '../rules/keys.ts';
import { ONE_AT_A_TIME } from '../engine/suite-types.ts';

/** The topic under which the keys suite shares each disabled key it created (`CreatedKey`). */
export const CREATED_KEYS = 'disabled keys created';

/** A disabled key the run created: its credentials, for the read signed with it (`keys.state-honoured`). */
export interface CreatedKey {
  readonly keyId: string;
  readonly keySecret: string;
}

/**
 * The group of drawn observe bodies, whose keys are not shared: which of them a target accepts depends on the body
 * drawn, so the plan could not count the reads signed with them.
 */
const OBSERVED_CREATES = 'observed key creates';

/** How many disabled keys the keys suite shares with `runs` examples per property, when every create is accepted. */
export function keysCreated(runs: number): number {
  return runs + KEYS_AT_ONCE + 3 + EXPIRY_OFFSETS.length + TEXT_SAMPLES.length + READ_ONLY_KEY_BODIES;
}

/** The credentials of a key an exchange created, when its create asked for a disabled key and was accepted. */
function createdKey(exchange: Exchange): CreatedKey | undefined {
  const sent = exchange.request.json as { state?: unknown } | undefined;
  if (exchange.operationId !== 'createKey' || !isSuccess(exchange) || sent?.state !== 'disabled') return undefined;
  const result = (exchange.response.json as { result?: { keyId?: unknown; keySecret?: unknown } } | undefined)?.result;
  return typeof result?.keyId === 'string' && typeof result.keySecret === 'string' && result.keyId !== ''
    ? { keyId: result.keyId, keySecret: result.keySecret }
    : undefined;
}

/** A group whose accepted creates of disabled keys are shared with the run's other suites (`CREATED_KEYS`). */
function sharingCreatedKeys(group: ProbeGroup): ProbeGroup {
  return {
    ...group,
    run(context) {
      const shared = <T extends Exchange>(exchange: T): T => {
        const key = createdKey(exchange);
        if (key) context.share(CREATED_KEYS, key);
        return exchange;
      };
      return group.run({
        ...context,
        send: async (operationId, request) => shared(await context.send(operationId, request)),
        record: (exchange) => shared(context.record(exchange)),
      });
    },
  };
}

/** Keys created at once in a run (when its concurrency allows as many). */
const KEYS_AT_ONCE = 3;
const DISABLED_WITHIN_DAY = { state: 'disabled', expiry: 'withinDay' } as const;
/** Offsets an expiry is written in, in minutes from UTC (or `Z`): east and west, on the quarter and half hour. */
const EXPIRY_OFFSETS: readonly (number | 'Z')[] = Object.freeze([405, -570, 0, 'Z', 840]);

const UNIQUE = 'keys.credentials-unique';

/**
 * `body` with its `hashData` (when it sends a whole one) made of a fresh key id and secret, drawn when it is sent:
 * each key create carries its own (two keys never share an id, `keys.credentials-unique`; a target refuses a second
 * key with the same `keyIdHash`), in this run and in any replay of it against the same target.
 */
function withFreshHashData<T>(body: T): T {
  const sent = (body as { hashData?: Record<string, unknown> } | undefined)?.hashData;
  const drawn =
    typeof sent === 'object' &&
    sent !== null &&
    HASH.test(String(sent.keyIdHash)) &&
    HASH.test(String(sent.keySecretHash)) &&
    SUFFIX.test(String(sent.keyIdSuffix));
  return drawn
    ? { ...body, hashData: hashDataOf(randomBytes(10).toString('hex'), randomBytes(20).toString('hex')) }
    : body;
}

/** A hash and a suffix as drawn (an observe body's unusual ones are sent as they are). */
const HASH = /^[0-9a-f]{64}$/;
const SUFFIX = /^[A-Za-z0-9]{4}$/;

/** Sends a key create, its `hashData` made fresh. */
function sendKey(context: SuiteContext, request: { json: unknown; probe: Probe }): Promise<JudgedExchange> {
  return context.send('createKey', { ...request, json: withFreshHashData(request.json) });
}

/**
 * Creates keys at once, each body in its own request released together, and records them: as evidence of creates sent
 * at once only when two were in flight together.
 */
async function createAtOnce(
  context: SuiteContext,
  bodies: readonly unknown[],
  label: string,
  more: Partial<Probe>,
): Promise<JudgedExchange[]> {
  const sent = await context.sendTogether(
    bodies.map((json) => ({
      operationId: 'createKey',
      request: { json: withFreshHashData(json), probe: accept(label, more) },
    })),
  );
  const together = overlapped(sent.flatMap((exchange) => exchange.interval ?? []));
  return sent.map((exchange) =>
    context.record(together ? { ...exchange, probe: { ...exchange.probe, part: CREATES_AT_ONCE } } : exchange),
  );
}

/**
 * When two keys created at once came back with the same credential, creates just those two at once again (shrink
 * requests, within the run's shrink budget); when they share one again, the finding the first time made gets the
 * two-key reproduction, and says how many keys were created at once then.
 */
async function narrowToPair(
  context: SuiteContext,
  bodies: Example<readonly unknown[]>,
  first: readonly JudgedExchange[],
): Promise<void> {
  const pair = first
    .flatMap((_, i) => first.slice(i + 1).map((_b, j) => [i, i + 1 + j] as const))
    .find(([i, j]) => sharedCredential(first[i]!, first[j]!) !== undefined);
  if (!pair || context.shrinkBudget.refusal(pair.length) !== undefined) return;
  for (const _ of pair) context.shrinkBudget.spend('requests');
  const again = await createAtOnce(
    context,
    pair.map((i) => bodies.value[i]),
    'a disabled key expiring within a day, created at once again with the one it shared a credential with',
    { ...fromExample(bodies), evidence: false, shrink: { property: bodies.example.property } },
  );
  const shared = again.length === 2 ? sharedCredential(again[0]!, again[1]!) : undefined;
  // The finding of the first time is the pair's later key's (it met the earlier one in the rule's memory), when kept.
  const made = [...pair]
    .reverse()
    .map((i) => first[i]!)
    .find((exchange) => exchange.findings.some((f) => f.rule === UNIQUE));
  if (!shared || !made) return;
  const curls = again.map((exchange) => context.evidence(exchange).curl);
  context.amendFinding(made, UNIQUE, (finding) => ({
    ...finding,
    probe:
      `${finding.probe} (${first.length} were created at once; the 2 of them that shared a \`${shared.field}\` ` +
      'shared one again when only they were: the reproduction creates those 2 at once)',
    reproduce: { ...finding.reproduce, curl: `${curls.join(' & ')} & wait` },
  }));
}

/** A disabled key expiring within a day, for the credential and access probes. */
const KEY_TARGET: AccessTarget = {
  operationId: 'createKey',
  api: 'management',
  scope: 'organization',
  request: (context) => ({
    json: withFreshHashData(
      context.examples('key for credentials', keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), 1)[0]!.value,
    ),
  }),
};

/** Roles outside the three, each sent alone: other words, other case, padded, a homoglyph, empty. */
const BAD_ROLES: readonly string[] = Object.freeze([
  'query-endpoints',
  'Admin',
  'DEVELOPER',
  'admin ',
  ' developer',
  '\u0430dmin',
  '',
]);

/**
 * The keys suite: valid creates, keys that never expire, invalid roles and bodies, credentials. Keys are created
 * disabled.
 */
export function keysSuite(): SuiteDefinition {
  return {
    name: 'keys',
    operations: ['createKey'],
    groups: (
      [
        {
          name: 'valid creates',
          operations: ['createKey'],
          // The disabled keys it creates are those the usage suite signs reads with.
          feeds: [
            'keys.roles-minimum#one or more roles accepted',
            'keys.credentials-unique#every create',
            'keys.state-honoured',
            `auth.required#${CREDENTIAL_FORMS.otherKeyId.name}`,
          ],
          estimate: (runs) => runs,
          async run(context) {
            const arbitrary = keyCreateBody({ state: 'disabled', expiry: 'withinDay' });
            const send = (json: unknown, more: Partial<Probe>): Promise<JudgedExchange> =>
              sendKey(context, {
                json,
                probe: accept('a valid disabled key expiring within a day', { rules: ['keys.roles-minimum'], ...more }),
              });
            await context.eachExample('valid key', arbitrary, (ex) => send(ex.value, fromExample(ex)), {
              shrink: send,
            });
          },
        },
        {
          name: 'keys created at once',
          operations: ['createKey'],
          feeds: [`keys.credentials-unique#${CREATES_AT_ONCE}`],
          estimate: () => KEYS_AT_ONCE,
          async run(context) {
            if (context.config.concurrency < 2)
              return context.unable(ONE_AT_A_TIME, { feeds: [`keys.credentials-unique#${CREATES_AT_ONCE}`] });
            const count = Math.min(KEYS_AT_ONCE, context.config.concurrency);
            const [bodies] = context.examples(
              'keys created at once',
              fc.array(keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), {
                minLength: count,
                maxLength: count,
              }),
              1,
            );
            const first = await createAtOnce(
              context,
              bodies!.value,
              'a disabled key expiring within a day, created at once with others',
              fromExample(bodies!),
            );
            await narrowToPair(context, bodies!, first);
          },
        },
        neverExpiringGroup(),
        {
          name: 'expiry in several offsets',
          operations: ['createKey'],
          estimate: () => EXPIRY_OFFSETS.length,
          async run(context) {
            const [complete] = context.examples(
              'key expiring in an offset',
              keyCreateBody({ state: 'disabled', expiry: 'withinDay' }),
              1,
            );
            // Within a day, as every key the run creates: the same instant, written at each offset.
            const at = Math.ceil(Date.now() / 60_000) * 60_000 + 6 * 3_600_000 + 250;
            await Promise.all(
              EXPIRY_OFFSETS.map((offset) => {
                const expireAt = dateTimeAt(at, offset);
                return sendKey(context, {
                  json: { ...complete!.value, name: `conformance expiry ${expireAt}`, expireAt },
                  probe: accept(`a disabled key expiring at ${expireAt}`),
                });
              }),
            );
          },
        },
        {
          name: 'names of every kind of text',
          operations: ['createKey'],
          estimate: () => TEXT_SAMPLES.length,
          async run(context) {
            const [complete] = context.examples('key named with text of a kind', keyCreateBody(DISABLED_WITHIN_DAY), 1);
            await Promise.all(
              TEXT_SAMPLES.map(({ kind, text }) =>
                sendKey(context, {
                  json: { ...complete!.value, name: text },
                  probe: observe(`a disabled key named with ${kind}`),
                }),
              ),
            );
          },
        },
        invalidRolesGroup(),
        {
          name: OBSERVED_CREATES,
          operations: ['createKey'],
          estimate: (runs) => Math.min(runs, 4),
          async run(context) {
            await Promise.all(
              context.examples('observed key', keyCreateBodyObserve(), 4).map((ex) =>
                sendKey(context, {
                  json: ex.value,
                  probe: observe('a disabled key body the documents neither require nor forbid', fromExample(ex)),
                }),
              ),
            );
          },
        },
        readOnlyKeyFieldsGroup(),
        ...malformedJsonGroups([{ operationId: 'createKey' }]),
        ...authGroups([KEY_TARGET]),
        ...accessGroups([KEY_TARGET]),
      ] satisfies ProbeGroup[]
    )
      .map((group) => (group.name === OBSERVED_CREATES ? group : sharingCreatedKeys(group)))
      // Odd key bodies the target may refuse: their keys are not among those other suites sign reads with.
      .concat(
        neighbourhoodGroups([
          {
            operationId: 'createKey',
            keep: { state: "the run's keys stay disabled: no odd value goes to `state`" },
            request: (context) => ({
              bodies: context
                .examples('keys for the neighbourhood', keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), 2)
                .map((ex) => withFreshHashData(ex.value) as Record<string, unknown>),
            }),
          },
        ]),
      ),
  };
}

/** How many key creates carry the fields only the server writes: under `key`, and at the top level. */
const READ_ONLY_KEY_BODIES = 2;

/**
 * Key creates that also send `keyId`, `keySecret` and the key's `id`, `keySuffix`, `createdAt` and `usedAt` (under
 * `key`, then at the top level), as observe probes of `access.read-only-fields`: if accepted, none becomes the key's.
 */
function readOnlyKeyFieldsGroup(): ProbeGroup {
  return {
    name: 'key fields only the server writes',
    operations: ['createKey'],
    estimate: () => READ_ONLY_KEY_BODIES,
    async run(context) {
      const [complete] = context.examples('key with server-written fields', keyCreateBody(DISABLED_WITHIN_DAY), 1);
      const bodies = Array.from({ length: READ_ONLY_KEY_BODIES }, (_, nested) => {
        const key = { id: randomUUID(), keySuffix: '~~~~', createdAt: LONG_AGO, usedAt: LONG_AGO };
        const credentials = { keyId: randomToken('conformance-id-'), keySecret: randomToken('conformance-secret-') };
        const sent = {
          ...credentials,
          ...Object.fromEntries(Object.entries(key).map(([field, value]) => [`key/${field}`, value])),
        };
        const where = nested === 0 ? 'under key' : 'at the top level';
        return {
          json: { ...complete!.value, ...credentials, ...(nested === 0 ? { key } : key) },
          probe: readOnlyProbe(`a disabled key whose create sends keyId, keySecret and the key's fields ${where}`, {
            sent,
            kept: {},
          }),
        };
      });
      await Promise.all(bodies.map((request) => sendKey(context, request)));
    },
  };
}

/** Creates with roles the documents refuse (empty, unknown, each bad role alone) and bodies of the wrong types. */
function invalidRolesGroup(): ProbeGroup {
  return {
    name: 'invalid roles',
    operations: ['createKey'],
    feeds: ['keys.roles-minimum#empty roles rejected', 'keys.roles-enum'],
    estimate: (runs) => 6 + BAD_ROLES.length + Math.min(runs - 1, 2) + runs,
    async run(context) {
      // Complete bodies but for the fault under test, so that a target that wants every field cannot pass by its
      // 400.
      const [complete] = context.examples(
        'base for invalid roles',
        keyCreateBody({ state: 'disabled', expiry: 'withinDay' }),
        1,
      );
      const base = { ...complete!.value, name: 'conformance invalid roles' };
      await Promise.all([
        sendKey(context, {
          json: { ...base, roles: [] },
          probe: reject('roles: []', 'keys.roles-minimum'),
        }),
        sendKey(context, {
          json: { ...base, roles: ['owner'] },
          probe: reject('roles: ["owner"]', 'keys.roles-enum'),
        }),
        sendKey(context, {
          json: { ...base, roles: ['admin', 'ADMIN'] },
          probe: reject('roles: ["admin", "ADMIN"]', 'keys.roles-enum'),
        }),
        // Each bad role alone, so that its refusal is its own.
        ...BAD_ROLES.map((role) =>
          sendKey(context, {
            json: { ...base, roles: [role] },
            probe: reject(`roles: [${JSON.stringify(role)}]`, 'keys.roles-enum'),
          }),
        ),
        ...context
          .examples('empty roles', keyCreateBodyEmptyRoles.arbitrary(), Math.min(2, context.config.runs - 1))
          .map((ex) =>
            sendKey(context, {
              json: ex.value,
              probe: reject('a body with roles: []', 'keys.roles-minimum', fromExample(ex)),
            }),
          ),
        context.eachExample('unknown role', keyCreateBodyUnknownRole.arbitrary(), (ex) =>
          sendKey(context, {
            json: ex.value,
            probe: reject('a body with an unknown role', 'keys.roles-enum', fromExample(ex)),
          }),
        ),
        sendKey(context, { json: { ...base, roles: 'admin' }, probe: reject('roles as a string') }),
        sendKey(context, {
          json: { ...base, roles: ['admin'], name: 42 },
          probe: reject('name as a number'),
        }),
        sendKey(context, {
          json: { ...base, roles: ['admin'], expireAt: 'tomorrow' },
          probe: reject('expireAt that is not a date-time'),
        }),
      ]);
    },
  };
}

/** Keys created without an expiry, or with one far off. */
function neverExpiringGroup(): ProbeGroup {
  return {
    name: 'keys that never expire',
    operations: ['createKey'],
    feeds: ['keys.never-expires'],
    estimate: () => 3,
    async run(context) {
      const forms: Array<[string, Record<string, unknown>]> = [
        ['expireAt absent', {}],
        ['expireAt null', { expireAt: null }],
        ['expireAt empty', { expireAt: '' }],
      ];
      const [complete] = context.examples(
        'never-expiring key',
        keyCreateBody({ state: 'disabled', expiry: 'withinDay' }),
        1,
      );
      const { expireAt: _withinDay, ...base } = complete!.value;
      await Promise.all(
        forms.map(([label, expiry]) =>
          sendKey(context, {
            json: { ...base, name: `conformance never-expires (${label})`, ...expiry },
            probe: accept(`a disabled key that never expires (${label}), as keys.never-expires needs`, {
              rules: ['keys.never-expires'],
            }),
          }),
        ),
      );
    },
  };
}
