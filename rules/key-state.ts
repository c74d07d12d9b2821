import type { Rule } from '../rule-model/rule.ts';
import { isRefusal } from '../transport/exchange.ts';
import { probes } from './body.ts';

/** The rule that a key's state is honoured where it authenticates. */
export const keyStateRules: Rule[] = [
  {
    id: 'keys.state-honoured',
    title: 'A disabled key does not authenticate',
    basis: 'inferred',
    sentence:
      'A key created `disabled` cannot authenticate: a request signed with its `keyId` and `keySecret` is ' +
      'rejected (any 4xx), on every operation tried.',
    probedBy:
      'every disabled key the run creates, once: one read signed with it (a GET, so that a broken target can ' +
      'change nothing)',
    operations: ['getUsageCost'],
    severity: 'credentials',
    applies: (ex) => probes(ex, 'keys.state-honoured') && ex.response !== undefined,
    check: (ex) =>
      isRefusal(ex)
        ? []
        : [
            {
              path: '',
              expected: 'a rejection (4xx): the key was created disabled',
              actual: ex.response?.status ?? 0,
            },
          ],
  },
];
