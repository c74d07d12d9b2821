import type { Rule, Violation } from '../core/rule.ts';
import { asObject } from './body.ts';
import { ALL_OPERATIONS } from './operations.ts';

/** Request fields that carry secrets and are never returned. */
export const SECRET_FIELDS = Object.freeze(['credentials', 'accessKey']);

/** Field and header names whose values the harness redacts in everything it records. */
export const REDACTED_NAMES = Object.freeze(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'credentials', 'accessKey', 'password', 'secretKey', 'keySecret', 'token']);

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

const secretFields = (json: unknown, path: string, out: Violation[]): void => {
  if (Array.isArray(json)) json.forEach((item, i) => secretFields(item, `${path}/${i}`, out));
  const object = asObject(json);
  if (!object) return;
  for (const [key, value] of Object.entries(object)) {
    if (SECRET_FIELDS.includes(key)) out.push({ path: `${path}/${key}`, expected: `no \`${key}\` field: it is request-only`, actual: '[redacted]' });
    else secretFields(value, `${path}/${key}`, out);
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
    operations: ALL_OPERATIONS,
    applies: (ex) => ex.response !== undefined,
    check: (ex, ctx) => {
      const response = ex.response!;
      const violations: Violation[] = [];
      secretFields(response.json, '', violations);
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
