import { isSuccess } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { asObject, payload, payloadPath, probes, sameId } from './body.ts';
import { subsetViolations } from './subset.ts';

const RULE = 'writes.refused-unchanged';

/** The parts of `writes.refused-unchanged`: a pipe read after refused PATCHes, an alert listed after refused PUTs. */
export const REFUSED_WRITE_PARTS = Object.freeze({
  pipe: 'a pipe read after refused PATCHes',
  alert: 'an alert listed after refused updates',
  sequences: 'refused writes in sequences',
});

/**
 * What a read after refused writes expects (`probe.expect.refusedUnchanged`): the pipe's settings as read before them,
 * or the alert's update fields as listed before them, with its `id`.
 */
export interface RefusedUnchanged {
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly alert?: Readonly<Record<string, unknown>> & { readonly id: string };
}

/** Rules of writes the target refuses. */
export const writeRules: Rule[] = [
  {
    id: RULE,
    title: 'A refused write changes nothing',
    basis: 'inferred',
    sentence:
      'A write the target refuses (any 4xx) changes nothing: the pipe or alert it named reads as it did before ' +
      'the write (Web Fuzzing Commons fault 114: a failed PUT or PATCH must not change the resource).',
    probedBy:
      'in sequences, refused pipe PATCHes and alert PUTs (invalid and observe bodies) with the model left as ' +
      'before them; the next read of what they named, and after every refused update probe outside sequences a ' +
      'read of its resource',
    operations: ['getPipeSettings', 'listAlerts'],
    parts: [
      { name: REFUSED_WRITE_PARTS.pipe, operations: ['getPipeSettings'] },
      { name: REFUSED_WRITE_PARTS.alert, operations: ['listAlerts'] },
      { name: REFUSED_WRITE_PARTS.sequences, operations: ['getPipeSettings', 'listAlerts'] },
    ],
    partOf: (ex) =>
      ex.probe.part ?? (ex.operationId === 'getPipeSettings' ? REFUSED_WRITE_PARTS.pipe : REFUSED_WRITE_PARTS.alert),
    applies: (ex) => probes(ex, RULE) && isSuccess(ex) && asObject(ex.probe.expect?.refusedUnchanged) !== undefined,
    check: (ex) => {
      const expected = ex.probe.expect?.refusedUnchanged as RefusedUnchanged;
      if (expected.settings)
        return refusedViolations(subsetViolations(expected.settings, payload(ex), payloadPath(ex)));
      const alert = expected.alert!;
      const data = asObject(ex.response?.json)?.data;
      const list = Array.isArray(data) ? data : [];
      const index = list.findIndex((entry) => sameId(asObject(entry)?.id, alert.id));
      if (index === -1)
        return [{ path: payloadPath(ex), expected: `the alert ${alert.id} as listed before the refused updates` }];
      return refusedViolations(subsetViolations(alert, list[index], `${payloadPath(ex)}/${index}`));
    },
  },
];

/** Violations of a read after refused writes, each saying so. */
const refusedViolations = (violations: Violation[]): Violation[] =>
  violations.map((v) => ({ ...v, expected: `${String(v.expected)}, as before the refused updates` }));
