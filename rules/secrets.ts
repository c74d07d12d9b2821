import { EVERY_OPERATION, rememberingRule, type Rule, type RuleMemory, type Violation } from '../rule-model/rule.ts';
import { SECRET_FORM_WORDS, type SecretFound, type SecretLookup } from '../secrets/secret-index.ts';
import { createSecretRegistry, isContainer } from '../secrets/secret-registry.ts';

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

/** Every request-only field in a JSON value; a path is built only for an object or array, which may hold one. */
const secretFields = (
  json: Record<string, unknown>,
  fields: readonly string[],
  path: string,
  out: Violation[],
): void => {
  if (Array.isArray(json)) {
    for (let i = 0; i < json.length; i++) {
      const item: unknown = json[i];
      if (isContainer(item)) secretFields(item, fields, `${path}/${i}`, out);
    }
    return;
  }
  for (const key in json) {
    const value = json[key];
    if (fields.includes(key))
      out.push({ path: `${path}/${key}`, expected: `no \`${key}\` field: it is request-only`, actual: '[redacted]' });
    else if (isContainer(value)) secretFields(value, fields, `${path}/${key}`, out);
  }
};

/**
 * Every secret value the run has sent, in every form the index knows: its own credentials, and the request-only
 * secrets of each request so far, with each username and password pair among them: the view of the secrets sent of
 * the run's one registry, which the session feeds where each exchange is recorded, before it is judged (memories made
 * without a session's registry get one of their own, with the settings' credentials).
 */
const sentSecrets: RuleMemory<SecretLookup> = {
  create: ({ config, secrets }) => (secrets ?? createSecretRegistry(config)).sent,
};

/** What a violation shows of a secret found: the form it took, never the secret. */
const leaked = (found: SecretFound): string => `[redacted], ${SECRET_FORM_WORDS[found.form]}`;

/** The rule that secrets sent in requests never come back. */
export const secretRules: Rule[] = [
  rememberingRule({
    id: 'secrets.absent',
    title: 'Secrets sent never come back',
    basis: 'stated',
    sentence:
      'No secret sent in a request (`credentials`, `accessKey`, `schemaRegistry.credentials`) appears in ' +
      'any response: neither its field nor its value, under any name, anywhere in the body or headers, plain or in a ' +
      'common encoding (base64 and base64url of the value, or of `username:password` as HTTP Basic carries it; ' +
      'percent-encoding, as in a connection string; JSON escapes; hex), whole or in part (any run of 12 characters ' +
      "of a secret: the harness's secrets are long and random, so such a run never appears by chance).",
    probedBy:
      'generate unique secret values that these encodings change (with characters such as `@`, `:`, `/`, `+`); ' +
      'scan each response for each form',
    operations: EVERY_OPERATION,
    severity: 'secret',
    memory: sentSecrets,
    applies: (ex) => ex.response !== undefined,
    check: (ex, ctx, secrets) => {
      const response = ex.response!;
      const violations: Violation[] = [];
      if (isContainer(response.json)) secretFields(response.json, ctx.specs.requestOnlySecretFields, '', violations);
      for (const [name, value] of Object.entries(response.headers)) {
        for (const found of secrets.foundIn(value))
          violations.push({ path: `header:${name}`, expected: 'no secret value sent earlier', actual: leaked(found) });
      }
      for (const found of secrets.foundIn(response.text)) {
        violations.push({
          path: where(response.json, found.text, '') ?? where(response.json, found.secret, '') ?? '',
          expected: 'no secret value sent earlier',
          actual: leaked(found),
        });
      }
      return violations;
    },
  }),
];
