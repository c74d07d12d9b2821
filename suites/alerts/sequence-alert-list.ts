import fc from 'fast-check';
import type { Exchange } from '../../transport/exchange.ts';
import { accept } from '../../engine/probe.ts';
import type { AlertModel } from './sequence-alert-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

/**
 * Lists the alerts: every other alert as listed before the sequence, the alert under test as its last update left it.
 */
export async function listAlerts(model: AlertModel, real: SequenceReal): Promise<Exchange> {
  const expect = { others: model.others, ...(model.expected ? { alert: model.expected } : {}) };
  return real.step({ command: 'list the alerts', kind: 'list' }, 'listAlerts', {
    probe: accept('list alerts in a sequence', { expect }),
  });
}

/**
 * Lists the alerts (a command): every other alert as listed before the sequence, the alert under test as its last
 * update left it.
 */
class ListAlerts implements SequenceCommand<AlertModel> {
  check(model: Readonly<AlertModel>): boolean {
    return model.room(1);
  }

  async run(model: AlertModel, real: SequenceReal): Promise<void> {
    await listAlerts(model, real);
  }

  toString(): string {
    return 'listAlerts';
  }
}

/** The command that lists the alerts. */
export function listAlertsCommand(): fc.Arbitrary<SequenceCommand<AlertModel>> {
  return fc.constant(new ListAlerts()).map((command): SequenceCommand<AlertModel> => command);
}
