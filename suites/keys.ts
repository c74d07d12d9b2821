import { keyCreateBody, keyCreateBodyEmptyRoles, keyCreateBodyUnknownRole } from '../generators/index.ts';
import { authGroups, malformedJsonGroups } from './support/auth-group.ts';
import { accept, fromExample, reject } from './support/probe.ts';
import type { SuiteDefinition } from './support/suite-types.ts';

const inADay = (): string => new Date(Date.now() + 20 * 3_600_000).toISOString();

/** The keys suite: valid creates, keys that never expire, invalid roles and bodies, credentials. Keys are created disabled. */
export function keysSuite(): SuiteDefinition {
  return {
    name: 'keys',
    operations: ['createKey'],
    groups: [
      {
        name: 'valid creates',
        operations: ['createKey'],
        feeds: ['keys.roles-minimum#one or more roles accepted'],
        estimate: (runs) => runs,
        async run(context) {
          const examples = context.examples('valid key', keyCreateBody({ state: 'disabled', expiry: 'withinDay', hashData: false }));
          await Promise.all(examples.map((ex) =>
            context.send('createKey', { json: ex.value, probe: accept('a valid disabled key expiring within a day', { rules: ['keys.roles-minimum'], ...fromExample(ex) }) })));
        },
      },
      {
        name: 'keys that never expire',
        operations: ['createKey'],
        feeds: ['keys.never-expires'],
        estimate: () => 3,
        async run(context) {
          const forms: Array<[string, Record<string, unknown>]> = [['expireAt absent', {}], ['expireAt null', { expireAt: null }], ['expireAt empty', { expireAt: '' }]];
          await Promise.all(forms.map(([label, expiry]) =>
            context.send('createKey', { json: { name: `conformance never-expires (${label})`, roles: ['developer'], state: 'disabled', ...expiry }, probe: accept(`a disabled key that never expires (${label}), as keys.never-expires needs`, { rules: ['keys.never-expires'] }) })));
        },
      },
      {
        name: 'invalid roles',
        operations: ['createKey'],
        feeds: ['keys.roles-minimum#empty roles rejected', 'keys.roles-enum'],
        estimate: (runs) => 6 + Math.min(runs - 1, 2) + runs,
        async run(context) {
          const base = { name: 'conformance invalid roles', state: 'disabled', expireAt: inADay() };
          await Promise.all([
            context.send('createKey', { json: { ...base, roles: [] }, probe: reject('roles: []', 'keys.roles-minimum') }),
            context.send('createKey', { json: { ...base, roles: ['owner'] }, probe: reject('roles: ["owner"]', 'keys.roles-enum') }),
            context.send('createKey', { json: { ...base, roles: ['admin', 'ADMIN'] }, probe: reject('roles: ["admin", "ADMIN"]', 'keys.roles-enum') }),
            ...context.examples('empty roles', keyCreateBodyEmptyRoles.arbitrary(), Math.min(2, context.config.runs - 1)).map((ex) =>
              context.send('createKey', { json: ex.value, probe: reject('a body with roles: []', 'keys.roles-minimum', fromExample(ex)) })),
            ...context.examples('unknown role', keyCreateBodyUnknownRole.arbitrary()).map((ex) =>
              context.send('createKey', { json: ex.value, probe: reject('a body with an unknown role', 'keys.roles-enum', fromExample(ex)) })),
            context.send('createKey', { json: { ...base, roles: 'admin' }, probe: reject('roles as a string') }),
            context.send('createKey', { json: { ...base, roles: ['admin'], name: 42 }, probe: reject('name as a number') }),
            context.send('createKey', { json: { ...base, roles: ['admin'], expireAt: 'tomorrow' }, probe: reject('expireAt that is not a date-time') }),
          ]);
        },
      },
      ...malformedJsonGroups([{ operationId: 'createKey' }]),
      ...authGroups([{ operationId: 'createKey', api: 'management', request: (context) => ({ json: context.examples('key for credentials', keyCreateBody({ state: 'disabled', expiry: 'withinDay' }), 1)[0]!.value }) }]),
    ],
  };
}
