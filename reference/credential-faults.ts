import { usableKey } from './auth.ts';
import { type Fault, statefulFault } from './fault.ts';
import type { AuthVerdict, HookContext } from './hooks.ts';
import { isObject, type Json, type JsonObject } from './json.ts';
import { hashSecret, teamsOf } from './store.ts';

/** How many characters of a password the hint of `password-hint` gives. */
const HINT_LENGTH = 12;

/** A verdict that accepts Basic credentials as those of `key`'s organization. */
const acceptedAs = (verdict: AuthVerdict, organizationId: string): AuthVerdict => ({
  ...verdict,
  accepted: true,
  knownKey: true,
  organizationId,
});

/** A text as a MySQL `_ci` collation with PAD SPACE compares it: any case, trailing spaces ignored. */
const collated = (text: string): string => text.replace(/ +$/, '').toLowerCase();

/** The first password a pipe write sent in its source, as a broken "hint" would take it. */
function firstPassword(input: Json | undefined): string | undefined {
  const source = isObject(input) && isObject(input.source) ? input.source : undefined;
  const paths = [
    ['broker', 'credentials', 'password'],
    ['broker', 'schemaRegistry', 'credentials', 'password'],
    ['relational', 'credentials', 'password'],
    ['objectStorage', 'accessKey', 'secretKey'],
    ['stream', 'accessKey', 'secretKey'],
  ];
  for (const path of paths) {
    const value = path.reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), source);
    if (typeof value === 'string' && value.length >= HINT_LENGTH) return value;
  }
  return undefined;
}

/** The faults of broken authentication, of the key's life and of a secret leaked in part. */
export const CREDENTIAL_FAULTS: readonly Fault[] = Object.freeze([
  statefulFault(
    'auth-empty-secret',
    'management API accepts a known, usable key id with an empty secret or none at all (`if (secret && secret !== ' +
      'stored)`)',
    ['auth.required'],
    ['getUsageCost'],
    (store) => ({
      authorize: (ctx: HookContext, v: AuthVerdict) => {
        if (ctx.api !== 'management' || v.accepted || v.scheme !== 'basic' || v.presented?.secret) return v;
        const key = store.keys.get(v.presented?.user ?? '');
        return usableKey(key, new Date()) ? acceptedAs(v, key.organizationId) : v;
      },
    }),
  ),
  statefulFault(
    'auth-case-insensitive',
    'key ids, key secrets and alerts tokens are compared as a MySQL `_ci` collation compares them: in any case, ' +
      'trailing spaces ignored',
    ['auth.required'],
    ['getUsageCost', 'listAlerts'],
    (store) => {
      // The secrets as a target that keeps them in a column has them: the organizations' root keys, then each created.
      const secrets = new Map<string, string>([
        [store.managementKeyId, store.managementKeySecret],
        [store.other.managementKeyId, store.other.managementKeySecret],
      ]);
      return {
        result: (ctx: HookContext, r: JsonObject) => {
          if (ctx.operation === 'createKey' && typeof r.keyId === 'string' && typeof r.keySecret === 'string')
            secrets.set(r.keyId, r.keySecret);
          return r;
        },
        authorize: (ctx: HookContext, v: AuthVerdict) => {
          const sent = v.presented;
          if (v.accepted || sent?.secret === undefined) return v;
          if (ctx.api === 'alerts' && v.scheme === 'bearer') {
            const team = teamsOf(store).find((t) => collated(t.alertsToken) === collated(sent.secret!));
            return team ? { ...v, accepted: true, team: team.team } : v;
          }
          if (ctx.api !== 'management' || v.scheme !== 'basic') return v;
          const key = [...store.keys.values()].find((k) => collated(k.keyId) === collated(sent.user ?? ''));
          const secret = key ? secrets.get(key.keyId) : undefined;
          return usableKey(key, new Date()) && secret !== undefined && collated(secret) === collated(sent.secret)
            ? acceptedAs(v, key.organizationId)
            : v;
        },
      };
    },
  ),
  statefulFault(
    'disabled-key-authenticates',
    "a disabled key's id and secret authenticate: the state is never checked",
    ['keys.state-honoured'],
    ['getUsageCost'],
    (store) => ({
      authorize: (ctx: HookContext, v: AuthVerdict) => {
        const sent = v.presented;
        if (ctx.api !== 'management' || v.accepted || v.scheme !== 'basic' || sent?.secret === undefined) return v;
        const key = store.keys.get(sent.user ?? '');
        return key?.state === 'disabled' && hashSecret(sent.secret).equals(key.secretHash)
          ? acceptedAs(v, key.organizationId)
          : v;
      },
    }),
  ),
  statefulFault(
    'key-credentials-chosen',
    'a key create that carries `keyId` and `keySecret` gets exactly those: the client chooses its own credentials',
    ['access.read-only-fields'],
    ['createKey'],
    (store) => ({
      result: (ctx: HookContext, r: JsonObject) => {
        const body = isObject(ctx.input) ? ctx.input : {};
        const { keyId, keySecret } = body;
        if (ctx.operation !== 'createKey' || typeof keyId !== 'string' || typeof keySecret !== 'string') return r;
        const made = typeof r.keyId === 'string' ? store.keys.get(r.keyId) : undefined;
        if (made) {
          store.keys.delete(made.keyId);
          store.keys.set(keyId, { ...made, keyId, secretHash: hashSecret(keySecret) });
        }
        const key = isObject(r.key) ? { ...r.key, keySuffix: keyId.slice(-4) } : r.key;
        return { ...r, keyId, keySecret, ...(key === undefined ? {} : { key }) };
      },
    }),
  ),
  statefulFault(
    'password-hint',
    'a pipe create answers the first 12 characters of the password (or secret key) it was sent, as `passwordHint`',
    ['secrets.absent'],
    ['createPipe'],
    () => ({
      result: (ctx: HookContext, r: JsonObject) => {
        const password = ctx.operation === 'createPipe' ? firstPassword(ctx.input) : undefined;
        return password === undefined ? r : { ...r, passwordHint: password.slice(0, HINT_LENGTH) };
      },
    }),
  ),
]);
