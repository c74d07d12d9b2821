import { isSuccess } from '../transport/exchange.ts';
import type { Rule } from '../rule-model/rule.ts';
import { payload, payloadPath, probes, requestBody, sameId } from './body.ts';
import { intentViolations } from './intent.ts';

/** Rules of the service state operation. */
export const serviceRules: Rule[] = [
  {
    id: 'service.command',
    title: 'Only start and stop are service commands',
    basis: 'stated',
    sentence: '`start` and `stop` are accepted and return the service; any other command is rejected.',
    probedBy: 'both commands, and invalid ones',
    operations: ['changeServiceState'],
    parts: [{ name: 'start accepted' }, { name: 'stop accepted' }, { name: 'other commands rejected' }],
    partOf: (ex) =>
      ex.probe.intent === 'reject'
        ? 'other commands rejected'
        : ex.probe.intent === 'accept'
          ? `${String(requestBody(ex)?.command)} accepted`
          : undefined,
    applies: (ex) => probes(ex, 'service.command') && ex.response !== undefined,
    check: (ex) => {
      const violations = intentViolations(ex);
      if (violations.length === 0 && ex.probe.intent === 'accept' && payload(ex) === undefined) {
        violations.push({ path: payloadPath(ex), expected: 'the service', actual: undefined });
      }
      return violations;
    },
  },
  {
    id: 'service.result-identity',
    title: 'A state change returns the path service',
    basis: 'inferred',
    sentence: 'The service returned is the path service (`id` equals the path `serviceId`).',
    probedBy: 'every state change',
    operations: ['changeServiceState'],
    applies: (ex) => isSuccess(ex) && payload(ex) !== undefined,
    check: (ex) => {
      const id = payload(ex)?.id;
      return sameId(id, ex.request.params.serviceId)
        ? []
        : [
            {
              path: `${payloadPath(ex)}/id`,
              expected: `the path serviceId ${ex.request.params.serviceId}`,
              actual: id,
            },
          ];
    },
  },
];
