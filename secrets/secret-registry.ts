import { runSecrets } from '../apis/index.ts';
import type { TargetsOf } from '../apis/descriptor.ts';
import type { Exchange } from '../transport/exchange.ts';
import { type NetworkSettings, networkSecrets } from '../settings/network-settings.ts';
import { headerSecrets, type RunHeaders } from '../settings/request-headers.ts';
import {
  createSecretIndex,
  MIN_SECRET_LENGTH,
  type SecretFound,
  type SecretKind,
  type SecretLookup,
  type SecretPair,
} from './secret-index.ts';
import type { Specs } from '../spec/spec.ts';

/** Secrets shorter than this are not redacted: they would be found in any text by chance. */
const MIN_REDACTED_LENGTH = 4;

/** Header and field names that carry credentials in any HTTP API, beside the fields the specs mark secret. */
const CREDENTIAL_NAMES = Object.freeze([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'token',
]);

/**
 * Field and header names whose values the harness redacts in everything it records: the usual credential names and
 * every field the specs mark `x-conformance-secret`.
 */
export function redactedNames(specs: Pick<Specs, 'secretFields'>): readonly string[] {
  return [...CREDENTIAL_NAMES, ...specs.secretFields];
}

/**
 * A JSON object or array. Walks go over an object's keys with `for...in` (a parsed body's own keys, in order), which
 * allocates nothing per key.
 */
export const isContainer = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Every string under a property named in `names` (compared case-insensitively), at any depth of a JSON value. */
export function valuesUnder(json: unknown, names: readonly string[]): string[] {
  return secretsIn(json, names).values;
}

/**
 * The secrets a request body carries, in one walk: every string under a field named in `fields` (compared
 * case-insensitively), and every object with a string `username` and `password` (the pairs HTTP Basic would carry).
 */
export function secretsIn(
  json: unknown,
  fields: readonly string[],
): { readonly values: string[]; readonly pairs: SecretPair[] } {
  const lower = new Set(fields.map((name) => name.toLowerCase()));
  const values: string[] = [];
  const pairs: SecretPair[] = [];
  const walk = (value: unknown, inside: boolean): void => {
    if (typeof value === 'string') {
      if (inside) values.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, inside);
    } else if (isContainer(value)) {
      if (typeof value.username === 'string' && typeof value.password === 'string')
        pairs.push({ username: value.username, password: value.password });
      for (const key in value) walk(value[key], inside || lower.has(key.toLowerCase()));
    }
  };
  walk(json, false);
  return { values, pairs };
}

/** What of a run's settings holds secrets: the targets' credentials, the network's, the headers it adds. */
export type RunSecrets = TargetsOf & { readonly network?: NetworkSettings; readonly headers?: RunHeaders };

/**
 * The one registry of a run's secrets in a thread: fed with the run's settings and, where an exchange is recorded,
 * with what the exchange carries; read by the redactor (every secret) and by `secrets.absent` (the secrets sent).
 */
export interface SecretRegistry {
  /**
   * The secrets of a run's settings: the APIs' credentials and the headers it adds (sent), the network's passphrase and
   * passwords (held).
   */
  addSettings(config: RunSecrets): void;
  /** Adds a secret value (one shorter than 4 characters is ignored). */
  add(value: string, kind: SecretKind): void;
  /**
   * Adds what one exchange carries, its request walked once: the request-only values and username and password pairs
   * it sent, the values under a redacted name its response returned (held). Returns the request-only values sent.
   */
  record(exchange: Exchange, specs: Pick<Specs, 'secretFields' | 'requestOnlySecretFields'>): readonly string[];
  /** The secrets sent: what `secrets.absent` looks for. */
  readonly sent: SecretLookup;
  /** Every form of every secret, of either kind, found in `text` (the short ones as they are): what is redacted. */
  everyIn(text: string): SecretFound[];
}

/** Creates a run's registry of secrets, with those of its settings when given. */
export function createSecretRegistry(config?: RunSecrets): SecretRegistry {
  const index = createSecretIndex();
  /** The secrets too short for the index, looked for one by one (redacted only). */
  const short = new Set<string>();
  const add = (value: string, kind: SecretKind): void => {
    if (typeof value !== 'string' || value.length < MIN_REDACTED_LENGTH) return;
    if (value.length < MIN_SECRET_LENGTH) short.add(value);
    else index.add(value, kind);
  };
  const addSettings = (settings: RunSecrets): void => {
    for (const secret of runSecrets(settings)) add(secret, 'sent');
    for (const secret of headerSecrets(settings.headers)) add(secret, 'sent');
    for (const secret of networkSecrets(settings.network)) add(secret, 'held');
  };
  if (config) addSettings(config);
  return {
    addSettings,
    add,
    record(exchange, specs) {
      const { values, pairs } = secretsIn(exchange.request.json, specs.requestOnlySecretFields);
      for (const value of values) add(value, 'sent');
      for (const pair of pairs) index.add(pair, 'sent');
      for (const value of valuesUnder(exchange.response?.json, redactedNames(specs))) add(value, 'held');
      return values;
    },
    sent: index.sent,
    everyIn(text) {
      const found = index.everyIn(text);
      for (const secret of short) if (text.includes(secret)) found.push({ secret, form: 'plain', text: secret });
      return found;
    },
  };
}
