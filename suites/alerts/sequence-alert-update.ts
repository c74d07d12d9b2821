import fc from 'fast-check';
import { isSuccess } from '../../transport/exchange.ts';
import type { CompleteAlertUpdateBody } from '../../generators/index.ts';
import { alertFromUpdate } from '../../rules/alerts.ts';
import { accept } from '../../engine/probe.ts';
import type { AlertModel } from './sequence-alert-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

/** Updates the alert under test with a complete body: the answer must be that alert, with the values sent. */
class UpdateAlert implements SequenceCommand<AlertModel> {
  constructor(readonly body: CompleteAlertUpdateBody) {}

  check(model: Readonly<AlertModel>): boolean {
    return model.room(1);
  }

  async run(model: AlertModel, real: SequenceReal): Promise<void> {
    const probe = accept('a complete alert update of a sequence', { expect: { isolated: true } });
    const name = { command: `update the alert: ${this.toString()}`, kind: 'update' };
    const exchange = await real.step(name, 'updateAlert', {
      params: { id: model.id },
      json: this.body,
      probe,
    });
    if (isSuccess(exchange)) model.expected = { id: model.id, ...alertFromUpdate(this.body) };
  }

  toString(): string {
    return `updateAlert(threshold ${this.body.threshold}, ${this.body.thresholdType}, ${this.body.source})`;
  }
}

/** Commands that update the alert under test with complete bodies drawn from `bodies`. */
export function updateAlertCommand(
  bodies: fc.Arbitrary<CompleteAlertUpdateBody>,
): fc.Arbitrary<SequenceCommand<AlertModel>> {
  return fc.noShrink(bodies).map((body): SequenceCommand<AlertModel> => new UpdateAlert(body));
}
