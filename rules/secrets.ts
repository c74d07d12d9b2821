import { EVERY_OPERATION, type Rule, type Violation } from '../core/rule.ts';
import type { Specs } from '../core/spec.ts';
import { asObject } from './body.ts';

/** Header and field names that carry credentials in any HTTP API, beside the fields the specs mark secret. */
const CREDENTIAL_NAMES = Object.freeze(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'token']);

/** Field and header names whose values the harness redacts in everything it records: the usual credential names and every field the specs mark `x-conformance-secret`. */
export function redactedNames(specs: Pick<Specs, 'secretFields'>): readonly string[] {
  return [...CREDENTIAL_NAMES, ...specs.secretFields];
}

/** Every string under a property named in `names` (compared case-insensitively), at any depth of a JSON value. */
export function valuesUnder(json: unknown, names: readonly string[]): string[] {
  const lower = new Set(names.map((name) => name.toLowerCase()));
  const walk = (value: unknown, inside: boolean): string[] => {
    if (typeof value === 'string') return inside ? [value] : [];
    if (Array.isArray(value)) return value.flatMap((item) => walk(item, inside));
    if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, child]) => walk(child, inside || lower.has(key.toLowerCase())));
    return [];
  };
  return walk(json, false);
}

const where = (json: unknown, secret: string, path: string): string | undefined => {
  if (typeof json === 'string') return json.includes(secret) ? path : undefined;
  if (json && typeof json === 'object') {
    for (const [key, value] of Object.entries(json)) {
      if (key.includes(secret)) return `${path}/${key}`;
      const found = where(value, secret, `${path}/${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
};

const secretFields = (json: unknown, fields: readonly string[], path: string, out: Violation[]): void => {
  if (Array.isArray(json)) {
    for (const [i, item] of json.entries()) secretFields(item, fields, `${path}/${i}`, out);
  }
  const object = asObject(json);
  if (!object) return;
  for (const [key, value] of Object.entries(object)) {
    if (fields.includes(key)) out.push({ path: `${path}/${key}`, expected: `no \`${key}\` field: it is request-only`, actual: '[redacted]' });
    else secretFields(value, fields, `${path}/${key}`, out);
  }
};

/** The rule that secrets sent in requests never come back. */
export const secretRules: Rule[] = [
  {
    id: 'secrets.absent',
    title: 'Secrets sent never come back',
    basis: 'stated',
    sentence:
      'No secret sent in a request (`credentials`, `accessKey`, `schemaRegistry.credentials`) appears in any response: neither its field nor its value, under any name, anywhere in the body or headers.',
    probedBy: 'generate unique secret values; scan each response for them',
    operations: EVERY_OPERATION,
    applies: (ex) => ex.response !== undefined,
    check: (ex, ctx) => {
      const response = ex.response!;
      const violations: Violation[] = [];
      secretFields(response.json, ctx.specs.requestOnlySecretFields, '', violations);
      for (const [name, value] of Object.entries(response.headers)) {
        violations.push(...ctx.secrets.foundIn(value).map(() => ({ path: `header:${name}`, expected: 'no secret value sent earlier', actual: '[redacted]' })));
      }
      for (const secret of ctx.secrets.foundIn(response.text)) {
        violations.push({ path: where(response.json, secret, '') ?? '', expected: 'no secret value sent earlier', actual: '[redacted]' });
      }
      return violations;
    },
  },
];
