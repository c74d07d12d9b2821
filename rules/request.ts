import type { AuthScheme } from '../apis/descriptor.ts';
import { EVERY_OPERATION, type Rule, type RulePart } from '../rule-model/rule.ts';
import { intentViolations } from './intent.ts';

/** The ways a request can lack its API's credentials: each is a part of `auth.required` on every operation. */
export const CREDENTIAL_WAYS = Object.freeze([
  'no credentials',
  'a wrong secret or token',
  "the other API's scheme",
] as const);

/** The read each scheme's wrong forms of a secret or token go to, once each (`CREDENTIAL_FORMS`). */
export const CREDENTIAL_FORM_READS: Readonly<Record<AuthScheme, string>> = Object.freeze({
  basic: 'getUsageCost',
  bearer: 'listAlerts',
});

/**
 * The wrong secrets and tokens in the forms broken checks let through, each a part of `auth.required` on the read of
 * each scheme it can be written in: a space at either end only inside HTTP Basic's encoded value (around a bearer token
 * it is the header's own whitespace, which HTTP strips or allows).
 */
export const CREDENTIAL_FORMS = Object.freeze({
  empty: { name: 'an empty secret or token', schemes: ['basic', 'bearer'] },
  otherCase: { name: 'the right secret or token in another case', schemes: ['basic', 'bearer'] },
  spaceBefore: { name: 'the right secret with a space before it', schemes: ['basic'] },
  spaceAfter: { name: 'the right secret with a space after it', schemes: ['basic'] },
  prefix: { name: 'a prefix of the right secret or token', schemes: ['basic', 'bearer'] },
  longer: { name: 'the right secret or token with a character added', schemes: ['basic', 'bearer'] },
  noColon: { name: 'a Basic value without the colon', schemes: ['basic'] },
  otherKeyId: { name: "another key's id with this key's secret", schemes: ['basic'] },
} as const satisfies Record<string, { readonly name: string; readonly schemes: readonly AuthScheme[] }>);

/** The parts of `auth.required`: each way on every operation, each form of a wrong secret on its scheme's read. */
const AUTH_PARTS: readonly RulePart[] = [
  ...CREDENTIAL_WAYS.map((name) => ({ name })),
  ...Object.values(CREDENTIAL_FORMS).map((form) => ({
    name: form.name,
    operations: form.schemes.map((scheme) => CREDENTIAL_FORM_READS[scheme]),
  })),
];

/** Rules on how the target answers valid and invalid requests in general. */
export const requestRules: Rule[] = [
  {
    id: 'request.valid-accepted',
    title: 'Valid requests are accepted',
    basis: 'inferred',
    sentence: 'A request that is complete and valid by the documents is accepted.',
    probedBy: 'every positive probe',
    operations: EVERY_OPERATION,
    applies: (ex) => ex.probe.intent === 'accept' && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'errors.client-not-server',
    title: 'Bad input gets a 4xx, never a 5xx',
    basis: 'inferred',
    sentence: 'Malformed or invalid input gets a 4xx, never a 5xx.',
    probedBy:
      'every rejection probe, and malformed JSON; and input from the neighbourhood of the contract, each an observe ' +
      'probe (any answer but a 5xx): every part of a request (path ids that are not uuids or are very long, query ' +
      'parameters repeated, empty or unknown, top-level and nested fields no document names, a write with no ' +
      '`Content-Type` or another one, a method the path does not list) and every kind of value a field may receive ' +
      '(U+0000 and other control characters, duplicate items in arrays, addresses that are not addresses, ' +
      'enum-like strings with another unit or form)',
    operations: EVERY_OPERATION,
    severity: 'server',
    applies: (ex) => ex.probe.intent !== 'accept' && ex.response !== undefined,
    check: (ex) =>
      (ex.response?.status ?? 0) >= 500
        ? [{ path: '', expected: `a 4xx for ${ex.probe.label}`, actual: ex.response?.status }]
        : [],
  },
  {
    id: 'auth.required',
    title: 'Every operation needs its own credentials',
    basis: 'stated',
    sentence:
      'Every operation of both APIs is rejected without credentials, with a wrong secret or token, and ' +
      "with the other API's scheme.",
    probedBy:
      'each operation, each way; a wrong secret or token in the forms broken checks let through: empty, the right ' +
      'one in another case or with a space at either end, a prefix of it, it with a character added, a Basic value ' +
      "without the colon, another key's id with this key's secret",
    operations: EVERY_OPERATION,
    severity: 'credentials',
    parts: AUTH_PARTS,
    partOf: (ex) => ex.probe.part,
    applies: (ex) => ex.probe.rules?.includes('auth.required') === true && ex.response !== undefined,
    check: intentViolations,
  },
];
