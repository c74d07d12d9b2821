import type fc from 'fast-check';
import type { Exchange } from '../../transport/exchange.ts';
import type { CompleteAlertUpdateBody } from '../../generators/index.ts';
import { alertModel, type AlertModel } from './sequence-alert-model.ts';
import { listAlerts, listAlertsCommand } from './sequence-alert-list.ts';
import { updateAlertCommand } from './sequence-alert-update.ts';
import { updateAlertAtOnceCommand } from './sequence-alert-at-once.ts';
import { refusedAlertUpdateCommand } from './sequence-alert-refused.ts';
import type { SequenceCommand } from '../../engine/sequence-types.ts';
import { commandsWithin, runSequences, sequenceCommands } from '../../engine/sequence-run.ts';
import { accept } from '../../engine/probe.ts';
import type { SuiteContext } from '../../engine/suite-types.ts';

/** Commands of one alerts sequence at most, between the list that starts it and the list that ends it. */
export const ALERT_SEQUENCE_STEPS = 8;

/** Alerts sequences of a run: one alert, so one at a time, and few. */
const MAX_ALERT_SEQUENCES = 2;

/**
 * Alerts sequences of a run, whatever its `runs`: one alert, so few, and two so that an update and a list are all but
 * sure.
 */
export const alertSequences = (runs: number): number =>
  Math.min(Math.max(runs, MAX_ALERT_SEQUENCES), MAX_ALERT_SEQUENCES);

/** The rules an alerts sequence judges against its model: a step that breaks one ends the sequence, which is shrunk. */
const JUDGED = Object.freeze([
  'alerts.update-isolated',
  'alerts.update-applies',
  'alerts.concurrent-updates',
  'writes.refused-unchanged',
]);

/** The requests a command sends (fc.commands wraps each command: its words tell what it is). */
function requestsOf(command: SequenceCommand<AlertModel>): number {
  const words = String(command);
  const writes = /^updateAlertAtOnce\((\d+) /.exec(words)?.[1];
  if (writes !== undefined) return Number(writes) + 1;
  return words.startsWith('refusedUpdateAlert(') ? 3 : 1;
}

/**
 * Whether the commands that fit within `requests` (a command runs only where the ones before it leave it room) send an
 * update alone, updates at once and an update built to be refused: each kind judges a rule the others do not.
 */
export function sendsEveryUpdate(commands: Iterable<SequenceCommand<AlertModel>>, requests: number): boolean {
  const within = commandsWithin(commands, requests, requestsOf).map(String);
  return ['updateAlert(', 'updateAlertAtOnce(', 'refusedUpdateAlert('].every((kind) =>
    within.some((words) => words.startsWith(kind)),
  );
}

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
    // Eight updates to a list: with the lists before and after, a sequence sends at least as many updates as lists.
    // Each sends an update alone, updates at once and one built to be refused (two sequences a run: one that drew none
    // of a kind would leave alerts.update-isolated, alerts.concurrent-updates or writes.refused-unchanged unjudged).
    commands: sequenceCommands(
      ALERT_SEQUENCE_STEPS,
      [
        { weight: 8, arbitrary: updateAlertCommand(bodies) },
        { weight: 1, arbitrary: listAlertsCommand() },
        { weight: 3, arbitrary: updateAlertAtOnceCommand(bodies) },
        { weight: 2, arbitrary: refusedAlertUpdateCommand(bodies) },
      ],
      (first) => sendsEveryUpdate(first, ALERT_SEQUENCE_STEPS),
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
