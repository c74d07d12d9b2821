import type fc from 'fast-check';
import type { Exchange } from '../../transport/exchange.ts';
import type { CompleteAlertUpdateBody } from '../../generators/index.ts';
import { alertModel, type AlertModel } from './sequence-alert-model.ts';
import { listAlerts, listAlertsCommand } from './sequence-alert-list.ts';
import { updateAlertCommand } from './sequence-alert-update.ts';
import { sendsAtOnce, updateAlertAtOnceCommand } from './sequence-alert-at-once.ts';
import { runSequences, sequenceCommands } from '../../engine/sequence-run.ts';
import { accept } from '../../engine/probe.ts';
import type { SuiteContext } from '../../engine/suite-types.ts';

/** Commands of one alerts sequence at most, between the list that starts it and the list that ends it. */
export const ALERT_SEQUENCE_STEPS = 5;

/** Alerts sequences of a run: one alert, so one at a time, and few. */
const MAX_ALERT_SEQUENCES = 2;

/**
 * Alerts sequences of a run, whatever its `runs`: one alert, so few, and two so that an update and a list are all but
 * sure.
 */
export const alertSequences = (runs: number): number =>
  Math.min(Math.max(runs, MAX_ALERT_SEQUENCES), MAX_ALERT_SEQUENCES);

/** The rules an alerts sequence judges against its model: a step that breaks one ends the sequence, which is shrunk. */
const JUDGED = Object.freeze(['alerts.update-isolated', 'alerts.update-applies', 'alerts.concurrent-updates']);

/**
 * Sends model-based sequences of updates of alert `id` (complete bodies from `bodies`) and list reads, one sequence at
 * a time, each from a list read; `onStep` hears every exchange (what changed, and other alerts to compare).
 */
export function runAlertSequences(
  context: SuiteContext,
  id: string,
  bodies: fc.Arbitrary<CompleteAlertUpdateBody>,
  onStep: (exchange: Exchange) => void,
): Promise<void> {
  return runSequences<AlertModel>(context, {
    property: 'alerts/sequences',
    // Eight updates to a list: with the lists before and after, a sequence sends at least as many updates as lists. A
    // sequence without an update judges nothing the model knows more of than the list before it; each sends updates
    // at once (two sequences a run: one that drew none would leave alerts.concurrent-updates unjudged).
    commands: sequenceCommands(
      ALERT_SEQUENCE_STEPS,
      [
        { weight: 8, arbitrary: updateAlertCommand(bodies) },
        { weight: 1, arbitrary: listAlertsCommand() },
        { weight: 3, arbitrary: updateAlertAtOnceCommand(bodies) },
      ],
      (first) => sendsAtOnce(first, ALERT_SEQUENCE_STEPS),
    ),
    setup: async (real) =>
      alertModel(
        id,
        await real.step({ command: 'list the alerts (before the sequence)', kind: 'list' }, 'listAlerts', {
          probe: accept('list alerts before a sequence'),
        }),
        real.room,
      ),
    async finish(model, real, sent) {
      // At least once, then until the sequence has sent the steps the plan counts: the list before, the commands,
      // lists. A shrink candidate passes `sent` as Infinity (no padding): it reads once.
      let step = sent;
      do {
        await listAlerts(model, real);
        step += 1;
      } while (step < ALERT_SEQUENCE_STEPS + 2);
    },
    rules: JUDGED,
    // The list before the sequence and its commands; the lists after it fill up to the plan.
    commandRequests: ALERT_SEQUENCE_STEPS + 1,
    count: alertSequences(context.config.runs),
    width: 1,
    onStep,
  });
}
