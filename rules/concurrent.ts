import { notProbedYet, type Rule } from '../core/rule.ts';

/** Rules of writes sent at once: some order of them explains every answer. */
export const concurrentRules: Rule[] = [
  notProbedYet(
    {
      id: 'pipes.concurrent-updates',
      title: 'PATCHes of one pipe sent at once all take effect',
      basis: 'inferred',
      sentence:
        'PATCHes of one pipe sent at once all take effect as if applied one after another in some order: each ' +
        'answer, and the settings read after them all, is what some order of them leaves (no update lost, none ' +
        'half applied).',
      probedBy:
        'a sequence step that sends 2 to 4 PATCHes of one pipe at once, each setting different settings keys, ' +
        'then reads its settings; the answers and the read are checked against every order of the PATCHes',
      operations: ['updatePipe'],
    },
    'no sequence sends writes at once yet',
  ),
  notProbedYet(
    {
      id: 'alerts.concurrent-updates',
      title: 'Updates of one alert sent at once leave one of them, never a mix',
      basis: 'inferred',
      sentence: 'Complete updates of one alert sent at once leave it equal to one of them, never a mix of two.',
      probedBy: 'a sequence step that sends 2 or 3 complete updates of the alert under test at once, then lists',
      operations: ['updateAlert'],
    },
    'no sequence sends writes at once yet',
  ),
];
