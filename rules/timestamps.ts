import { notProbedYet, type Rule } from '../rule-model/rule.ts';

/** The rule that the times a target sets hold together. */
export const timestampRules: Rule[] = [
  notProbedYet(
    {
      id: 'timestamps.consistent',
      title: 'Times the target sets hold together',
      basis: 'inferred',
      sentence:
        "The times a target sets hold together: a resource's `updatedAt` is never before its `createdAt` and never " +
        "moves back, and an accepted update that changes a resource moves its `updatedAt` to the update's time, by " +
        "the target's own clock (its `Date` header, or a time it has just set), at the precision it keeps.",
      probedBy:
        "every pipe and alert answer and read; updates that came two seconds or more (by the target's clock) " +
        'after the `updatedAt` read before them',
      operations: ['createPipe', 'updatePipe', 'updateAlert', 'listAlerts'],
    },
    "no check compares the target's `createdAt`, `updatedAt` and clock yet",
  ),
];
