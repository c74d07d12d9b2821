import { notProbedYet, type Rule } from '../core/rule.ts';

/** Rules of writes the target refuses. */
export const writeRules: Rule[] = [
  notProbedYet(
    {
      id: 'writes.refused-unchanged',
      title: 'A refused write changes nothing',
      basis: 'inferred',
      sentence:
        'A write the target refuses (any 4xx) changes nothing: the pipe or alert it named reads as it did before ' +
        'the write (Web Fuzzing Commons fault 114: a failed PUT or PATCH must not change the resource).',
      probedBy:
        'in sequences, refused pipe PATCHes and alert PUTs (invalid and observe bodies) with the model left as ' +
        'before them; the next read of what they named, and after every refused update probe outside sequences a ' +
        'read of its resource',
      operations: ['updatePipe', 'updateAlert'],
    },
    'no probe reads a pipe or an alert after a refused write yet, so a refused write that changes it goes unseen',
  ),
];
