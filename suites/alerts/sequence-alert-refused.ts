import { sameId } from '../../core/sameness.ts';
import fc from 'fast-check';
import { isRefusal, isSuccess, type Exchange } from '../../transport/exchange.ts';
import type { CompleteAlertUpdateBody } from '../../generators/index.ts';
import { alertFromUpdate } from '../../rules/alerts.ts';
import { REFUSED_WRITE_PARTS } from '../../rules/writes.ts';
import { accept, reject } from '../../engine/probe.ts';
import { listedAlerts, type AlertModel } from './sequence-alert-model.ts';
import { listAlerts } from './sequence-alert-list.ts';

type Alert = Record<string, unknown>;
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

/** The fields of the alert under test that `body` names, as `list` shows them; undefined where it shows none. */
function named(model: Readonly<AlertModel>, list: Exchange, body: Record<string, unknown>): Alert | undefined {
  const listed = listedAlerts(list).find((alert) => sameId(alert.id, model.id));
  if (!listed) return undefined;
  const fields = Object.keys(alertFromUpdate(body)).filter((field) => field in listed);
  return { id: model.id, ...Object.fromEntries(fields.map((field) => [field, listed[field]])) };
}

/**
 * Lists the alerts (as the model holds them), then updates the alert under test with a complete body whose threshold
 * is a string, built to be refused; a refusal is followed by a list that must show the fields it named as the list
 * before it did (writes.refused-unchanged, its part in sequences). An acceptance (a finding of its own) leaves the
 * alert unknown to the model.
 */
class RefusedAlertUpdate implements SequenceCommand<AlertModel> {
  constructor(readonly body: CompleteAlertUpdateBody) {}

  check(model: Readonly<AlertModel>): boolean {
    return model.room(3, 1);
  }

  async run(model: AlertModel, real: SequenceReal): Promise<void> {
    const json = { ...this.body, threshold: 'high' };
    const before = await listAlerts(model, real);
    const name = { command: 'update the alert with a threshold "high"', kind: 'refused update' };
    const exchange = await real.step(name, 'updateAlert', {
      params: { id: model.id },
      json,
      probe: reject('an alert update of a sequence whose threshold is a string'),
    });
    const alert = named(model, before, json);
    if (isRefusal(exchange) && alert)
      await real.step({ command: 'list the alerts after the refusal', kind: 'list after a refusal' }, 'listAlerts', {
        probe: accept('list alerts after a refused update in a sequence', {
          rules: ['writes.refused-unchanged'],
          part: REFUSED_WRITE_PARTS.sequences,
          expect: { refusedUnchanged: { alert } },
        }),
      });
    else if (isSuccess(exchange)) model.expected = undefined;
  }

  toString(): string {
    return 'refusedUpdateAlert(threshold "high")';
  }
}

/** Commands that send the alert under test an update built to be refused (complete bodies from `bodies`). */
export function refusedAlertUpdateCommand(
  bodies: fc.Arbitrary<CompleteAlertUpdateBody>,
): fc.Arbitrary<SequenceCommand<AlertModel>> {
  return fc.noShrink(bodies).map((body): SequenceCommand<AlertModel> => new RefusedAlertUpdate(body));
}
