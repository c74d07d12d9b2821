import { sameId } from '../core/sameness.ts';
import { APIS } from '../apis/index.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import { linearize, renderLinearization, type LinearModel, type TimedWrite } from './linearizability.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { atOnceLetter } from '../evidence/sequence-example.ts';
import { asObject } from './body.ts';
import { alertOutcome, alertUpdatesModel, pipeUpdatesModel, settingsAfter } from './concurrent-models.ts';

type Json = Record<string, unknown>;

/** The part of each rule of writes sent at once: at least two of them were in flight together. */
export const WRITES_AT_ONCE = 'writes sent at once';

/** The part of `keys.credentials-unique` that keys created at once give evidence for (two in flight together). */
export const CREATES_AT_ONCE = 'creates sent at once';

/**
 * Writes sent at once and the read after them, as the write answered last carries them (`probe.expect.atOnce`): what
 * the model knew before them (`initial`: a pipe's settings, an alert), each write's body, interval and answer payload,
 * and the read's payload.
 */
export interface WritesAtOnce {
  readonly id?: string;
  readonly initial: unknown;
  readonly writes: readonly TimedWrite<Json, unknown>[];
  readonly read: unknown;
}

/**
 * The history of writes sent at once and the read after them, for the probe of the write answered last; undefined when
 * one of them was not accepted (whether it applied is unknown) or was not sent at once.
 */
export function writesAtOnce(
  known: { readonly id?: string; readonly initial: unknown },
  writes: readonly Exchange[],
  read: Exchange,
): { readonly atOnce: WritesAtOnce } | undefined {
  if (![...writes, read].every(isSuccess) || writes.some((write) => write.interval === undefined)) return undefined;
  const payloadOf = (exchange: Exchange): unknown =>
    asObject(exchange.response?.json)?.[APIS[exchange.api].envelope.payload];
  return {
    atOnce: {
      ...known,
      writes: writes.map((write) => ({
        write: asObject(write.request.json) ?? {},
        sent: write.interval!.sent,
        answered: write.interval!.answered,
        answer: payloadOf(write),
      })),
      read: payloadOf(read),
    },
  };
}

/** The history an exchange carries, if any. */
function historyOf(exchange: Exchange): WritesAtOnce | undefined {
  const history = asObject(exchange.probe.expect?.atOnce);
  return history && Array.isArray(history.writes) ? (history as unknown as WritesAtOnce) : undefined;
}

/** True when at least two of the writes were in flight together: only then do they tell anything of writes at once. */
export function overlapped(writes: readonly Pick<TimedWrite<unknown, unknown>, 'sent' | 'answered'>[]): boolean {
  return writes.some((a, i) => writes.some((b, j) => i !== j && a.sent < b.answered && b.sent < a.answered));
}

/** The name of the write at `index` of a step, as the report letters it (`a`, `b`, ...). */
function writeName(what: string): (index: number) => string {
  return (index) => `${what} ${atOnceLetter(index)}`;
}

/** One violation when no admissible order explains the history, with the orders tried and why each fails. */
function unexplained<S>(
  model: LinearModel<S, Json, unknown, unknown>,
  history: WritesAtOnce,
  what: { readonly one: string; readonly plural: string },
  more: (history: WritesAtOnce) => string[] = () => [],
): Violation[] {
  const result = linearize(model, history.writes, { value: history.read });
  if (result.explainedBy) return [];
  return [
    {
      path: '',
      expected:
        `some order of the ${history.writes.length} ${what.plural} sent at once to leave every answer and the read ` +
        'after them',
      actual: `none of the ${result.tried.length} order(s) their intervals admit does`,
      explanation: [...renderLinearization(result, writeName(what.one)), ...more(history)],
    },
  ];
}

/** Rules of writes sent at once: some order of them explains every answer. */
export const concurrentRules: Rule[] = [
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
    parts: [{ name: WRITES_AT_ONCE }],
    partOf: (ex) => (overlapped(historyOf(ex)?.writes ?? []) ? WRITES_AT_ONCE : undefined),
    applies: (ex) => ex.operationId === 'updatePipe' && historyOf(ex) !== undefined,
    check: (ex) => {
      const history = historyOf(ex)!;
      const model = pipeUpdatesModel<Json>({
        initial: asObject(history.initial) ?? {},
        apply: settingsAfter,
        settings: (settings) => settings,
      });
      return unexplained(model, history, { one: 'PATCH', plural: 'PATCHes' });
    },
  },
  {
    id: 'alerts.concurrent-updates',
    title: 'Updates of one alert sent at once leave one of them, never a mix',
    basis: 'inferred',
    sentence: 'Complete updates of one alert sent at once leave it equal to one of them, never a mix of two.',
    probedBy: 'a sequence step that sends 2 or 3 complete updates of the alert under test at once, then lists',
    operations: ['updateAlert'],
    parts: [{ name: WRITES_AT_ONCE }],
    partOf: (ex) => (overlapped(historyOf(ex)?.writes ?? []) ? WRITES_AT_ONCE : undefined),
    applies: (ex) => ex.operationId === 'updateAlert' && historyOf(ex)?.id !== undefined,
    check: (ex) => {
      const history = historyOf(ex)!;
      const model = alertUpdatesModel(history.id!, asObject(history.initial));
      return unexplained(model, history, { one: 'update', plural: 'updates' }, mixLines);
    },
  },
];

/** What the listed alert took of each update, when it equals none of them. */
function mixLines(history: WritesAtOnce): string[] {
  const listed = (Array.isArray(history.read) ? (history.read as unknown[]) : []).find((entry) =>
    sameId(asObject(entry)?.id, history.id),
  );
  if (listed === undefined) return [];
  const outcome = alertOutcome(
    listed,
    history.writes.map((write) => write.write),
  );
  if (outcome.equalTo.length > 0) return [];
  const name = writeName('update');
  const fields = Object.entries(outcome.fieldsFrom).map(
    ([field, from]) => `${field} from ${from.length === 0 ? 'none of them' : from.map(name).join(' or ')}`,
  );
  return [`the listed alert is a mix: ${fields.join(', ')}`];
}
