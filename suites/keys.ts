import { keyCreateBody, keyCreateBodyEmptyRoles, keyCreateBodyUnknownRole } from '../generators/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { authGroup, malformedJsonGroup } from './support/auth-group.ts';
import { accept, fromExample, reject } from './support/probe.ts';
import type { SuiteContext, SuiteDefinition } from './support/suite-types.ts';

const inADay = (): string => new Date(Date.now() + 20 * 3_600_000).toISOString();

/** Lists a key the target created, by id only: its secret is never kept. */
function noteKey(context: SuiteContext, exchange: Exchange, note: string): void {
  const key = (exchange.response?.json as { result?: { key?: { id?: unknown } } } | undefined)?.result?.key;
  if (exchange.response && exchange.response.status < 300 && typeof key?.id === 'string') {
    context.created({ kind: 'key', id: key.id, operation: 'createKey', note });
  }
}

/** The keys suite: valid creates, keys that never expire, invalid roles and bodies, credentials. */
export function keysSuite(): SuiteDefinition {
  return {
  name: 'keys',
  operations: ['createKey'],
  groups: [
    {
      name: 'valid creates',
      klass: 'write',
      operations: ['createKey'],
      estimate: (runs) => runs,
      async run(context) {
        const examples = context.examples('valid key', keyCreateBody({ state: 'disabled', expiry: 'withinDay', hashData: false }));
        await Promise.all(examples.map(async (ex) => {
          const exchange = await context.send('createKey', { json: ex.value, probe: accept('write', 'a valid disabled key expiring within a day', { rules: ['keys.roles-minimum'], ...fromExample(ex) }) });
          noteKey(context, exchange, 'disabled, expires within a day');
        }));
      },
    },
    {
      name: 'keys that never expire',
      klass: 'write',
      operations: ['createKey'],
      estimate: () => 3,
      async run(context) {
        const forms: Array<[string, Record<string, unknown>]> = [['expireAt absent', {}], ['expireAt null', { expireAt: null }], ['expireAt empty', { expireAt: '' }]];
        await Promise.all(forms.map(async ([label, expiry]) => {
          const exchange = await context.send('createKey', { json: { name: `conformance never-expires (${label})`, roles: ['developer'], state: 'disabled', ...expiry }, probe: accept('write', label, { rules: ['keys.never-expires'] }) });
          noteKey(context, exchange, 'disabled, never expires (needed by keys.never-expires)');
        }));
      },
    },
    {
      name: 'invalid roles',
      klass: 'read',
      operations: ['createKey'],
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
    malformedJsonGroup([{ operationId: 'createKey' }]),
    authGroup([{ operationId: 'createKey', api: 'management', request: () => ({ json: { name: 'conformance auth probe', roles: ['developer'], state: 'disabled', expireAt: inADay() } }) }]),
  ],
};
}
