import { EVERY_OPERATION, type Rule } from '../rule-model/rule.ts';

const NOT_THE_TARGETS_FAULT = new Set(['rate-limited', 'budget', 'interrupted']);

/** The rule that every request gets a complete answer in time. */
export const transportRules: Rule[] = [
  {
    id: 'transport.answers',
    title: 'Every request gets a complete answer in time',
    basis: 'inferred',
    sentence: 'Every operation answers within the configured timeout with a complete HTTP response.',
    probedBy: 'every request',
    operations: EVERY_OPERATION,
    severity: 'server',
    applies: (ex) => !(ex.failure && NOT_THE_TARGETS_FAULT.has(ex.failure.code)),
    check: (ex) =>
      ex.failure
        ? [
            {
              path: '',
              expected: 'a complete HTTP response within the timeout',
              actual: `${ex.failure.code}: ${ex.failure.message}`,
            },
          ]
        : [],
  },
];
