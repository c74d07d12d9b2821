import { sameId } from '../../core/sameness.ts';
import fc from 'fast-check';
import type { CompleteAlertUpdateBody } from '../../generators/index.ts';
import { alertFromUpdate } from '../../rules/alerts.ts';
import { alertOutcome } from '../../rules/concurrent-models.ts';
import { writesAtOnce } from '../../rules/concurrent.ts';
import { accept } from '../../engine/probe.ts';
import { listedAlerts, type AlertModel } from './sequence-alert-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

/** Complete updates of the alert under test sent at once at most. */
export const MAX_ALERT_WRITES_AT_ONCE = 3;

/**
 * Sends 2 or 3 complete updates of the alert under test at once (their names differ, and thresholds or messages), then
 * lists the alerts. The update answered last carries them all, judged by `alerts.concurrent-updates`; the model then
 * expects the update the list shows.
 */
class UpdateAlertAtOnce implements SequenceCommand<AlertModel> {
  constructor(readonly bodies: readonly CompleteAlertUpdateBody[]) {}

  check(model: Readonly<AlertModel>): boolean {
    return model.room(this.bodies.length + 1);
  }

  async run(model: AlertModel, real: SequenceReal): Promise<void> {
    const params = { id: model.id };
    const { read } = await real.atOnce({
      name: {
        command: `update the alert ${this.bodies.length} times at once: ${this.toString()}`,
        kind: 'updates at once',
      },
      writes: this.bodies.map((json) => ({
        operationId: 'updateAlert',
        request: { params, json, probe: accept('a complete alert update sent at once with others') },
      })),
      read: {
        name: { command: 'list the alerts', kind: 'list' },
        operationId: 'listAlerts',
        request: { probe: accept('list alerts after updates sent at once', { expect: { others: model.others } }) },
      },
      judge: (writes, list) => writesAtOnce({ id: model.id, initial: model.expected }, writes, list),
    });
    const listed = listedAlerts(read).find((alert) => sameId(alert.id, model.id));
    const [equal] = alertOutcome(listed, this.bodies).equalTo;
    if (equal !== undefined) model.expected = { id: model.id, ...alertFromUpdate(this.bodies[equal]!) };
  }

  toString(): string {
    const thresholds = this.bodies.map((body) => `threshold ${body.threshold}`).join(', ');
    return `updateAlertAtOnce(${this.bodies.length} updates: ${thresholds})`;
  }
}

/**
 * Commands that send 2 or 3 complete updates (from `bodies`, names differing, and thresholds or messages) of the alert
 * under test at once; shrinking tries fewer updates first.
 */
export function updateAlertAtOnceCommand(
  bodies: fc.Arbitrary<CompleteAlertUpdateBody>,
): fc.Arbitrary<SequenceCommand<AlertModel>> {
  return fc
    .uniqueArray(fc.noShrink(bodies), {
      minLength: 2,
      maxLength: MAX_ALERT_WRITES_AT_ONCE,
      // Two fields differ at least, so that a mix of two shows: the name, and the threshold or the message (a target
      // may list one threshold only, the one value a must-accept update may send there).
      comparator: (a, b) => a.name === b.name || (a.threshold === b.threshold && a.message === b.message),
    })
    .map((drawn): SequenceCommand<AlertModel> => new UpdateAlertAtOnce(drawn));
}
