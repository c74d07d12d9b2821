import fc from 'fast-check';
import {
  keyCreateBody,
  keyCreateBodyEmptyRoles,
  keyCreateBodyObserve,
  keyCreateBodyUnknownRole,
} from '../generators/index.ts';
import { dateTimeAt } from '../generators/dateTime.ts';
import { TEXT_SAMPLES } from './text-samples.ts';
import { accessGroups, type AccessTarget } from './access-groups.ts';
import { authGroups, malformedJsonGroups } from './auth-group.ts';
import { neighbourhoodGroups } from './neighbourhood.ts';
import { accept, fromExample, observe, reject } from '../engine/probe.ts';
import type { Example, JudgedExchange, SuiteContext, ProbeGroup, SuiteDefinition } from '../engine/suite-types.ts';
import type { Probe } from '../core/probe-types.ts';
import { CREATES_AT_ONCE, overlapped } from '../rules/concurrent.ts';
import { sharedCredential } from '../rules/keys.ts';
import { ONE_AT_A_TIME } from '../engine/suite-types.ts';

/** Keys created at once in a run (when its concurrency allows as many). */
const KEYS_AT_ONCE = 3;
const DISABLED_WITHIN_DAY = { state: 'disabled', expiry: 'withinDay' } as const;
/** Offsets an expiry is written in, in minutes from UTC (or `Z`): east and west, on the quarter and half hour. */
const EXPIRY_OFFSETS: readonly (number | 'Z')[] = Object.freeze([405, -570, 0, 'Z', 840]);

const UNIQUE = 'keys.credentials-unique';

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
    bodies.map((json) => ({ operationId: 'createKey', request: { json, probe: accept(label, more) } })),
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
    json: context.examples('key for credentials', keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), 1)[0]!
      .value,
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
    groups: [
      {
        name: 'valid creates',
        operations: ['createKey'],
        feeds: ['keys.roles-minimum#one or more roles accepted', 'keys.credentials-unique#every create'],
        estimate: (runs) => runs,
        async run(context) {
          const arbitrary = keyCreateBody({ state: 'disabled', expiry: 'withinDay' });
          const send = (json: unknown, more: Partial<Probe>): Promise<JudgedExchange> =>
            context.send('createKey', {
              json,
              probe: accept('a valid disabled key expiring within a day', { rules: ['keys.roles-minimum'], ...more }),
            });
          await context.eachExample('valid key', arbitrary, (ex) => send(ex.value, fromExample(ex)), { shrink: send });
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
            fc.array(keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), { minLength: count, maxLength: count }),
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
              return context.send('createKey', {
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
              context.send('createKey', {
                json: { ...complete!.value, name: text },
                probe: observe(`a disabled key named with ${kind}`),
              }),
            ),
          );
        },
      },
      invalidRolesGroup(),
      {
        name: 'observed key creates',
        operations: ['createKey'],
        estimate: (runs) => Math.min(runs, 4),
        async run(context) {
          await Promise.all(
            context.examples('observed key', keyCreateBodyObserve(), 4).map((ex) =>
              context.send('createKey', {
                json: ex.value,
                probe: observe('a disabled key body the documents neither require nor forbid', fromExample(ex)),
              }),
            ),
          );
        },
      },
      ...malformedJsonGroups([{ operationId: 'createKey' }]),
      ...authGroups([KEY_TARGET]),
      ...accessGroups([KEY_TARGET]),
      ...neighbourhoodGroups([
        {
          operationId: 'createKey',
          keep: { state: "the run's keys stay disabled: no odd value goes to `state`" },
          request: (context) => ({
            bodies: context
              .examples('keys for the neighbourhood', keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), 2)
              .map((ex) => ex.value as Record<string, unknown>),
          }),
        },
      ]),
    ],
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
        context.send('createKey', {
          json: { ...base, roles: [] },
          probe: reject('roles: []', 'keys.roles-minimum'),
        }),
        context.send('createKey', {
          json: { ...base, roles: ['owner'] },
          probe: reject('roles: ["owner"]', 'keys.roles-enum'),
        }),
        context.send('createKey', {
          json: { ...base, roles: ['admin', 'ADMIN'] },
          probe: reject('roles: ["admin", "ADMIN"]', 'keys.roles-enum'),
        }),
        // Each bad role alone, so that its refusal is its own.
        ...BAD_ROLES.map((role) =>
          context.send('createKey', {
            json: { ...base, roles: [role] },
            probe: reject(`roles: [${JSON.stringify(role)}]`, 'keys.roles-enum'),
          }),
        ),
        ...context
          .examples('empty roles', keyCreateBodyEmptyRoles.arbitrary(), Math.min(2, context.config.runs - 1))
          .map((ex) =>
            context.send('createKey', {
              json: ex.value,
              probe: reject('a body with roles: []', 'keys.roles-minimum', fromExample(ex)),
            }),
          ),
        context.eachExample('unknown role', keyCreateBodyUnknownRole.arbitrary(), (ex) =>
          context.send('createKey', {
            json: ex.value,
            probe: reject('a body with an unknown role', 'keys.roles-enum', fromExample(ex)),
          }),
        ),
        context.send('createKey', { json: { ...base, roles: 'admin' }, probe: reject('roles as a string') }),
        context.send('createKey', {
          json: { ...base, roles: ['admin'], name: 42 },
          probe: reject('name as a number'),
        }),
        context.send('createKey', {
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
          context.send('createKey', {
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
