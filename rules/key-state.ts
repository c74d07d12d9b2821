import { notProbedYet, type Rule } from '../rule-model/rule.ts';

/** The rule that a key's state is honoured where it authenticates. */
export const keyStateRules: Rule[] = [
  notProbedYet(
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
    },
    'no probe signs a read with a disabled key the run created yet',
  ),
];
