import { EVERY_OPERATION, type Rule } from '../rule-model/rule.ts';
import { intentViolations } from './intent.ts';

/** The ways a request can lack its API's credentials: each is a part of `auth.required` on every operation. */
export const CREDENTIAL_WAYS = Object.freeze([
  'no credentials',
  'a wrong secret or token',
  "the other API's scheme",
] as const);

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
    parts: CREDENTIAL_WAYS.map((name) => ({ name })),
    partOf: (ex) => ex.probe.part,
    applies: (ex) => ex.probe.rules?.includes('auth.required') === true && ex.response !== undefined,
    check: intentViolations,
  },
];
