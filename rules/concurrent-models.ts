import { APIS } from '../apis/index.ts';
import type { LinearModel } from './linearizability.ts';
import type { Violation } from '../rule-model/rule.ts';
import { alertFromUpdate, LIST_OMITTED } from './alerts.ts';
import { asObject, sameId } from './body.ts';
import { omitKeys, subsetViolations } from './subset.ts';

type Json = Record<string, unknown>;

const MANAGEMENT_PAYLOAD = `/${APIS.management.envelope.payload}`;
const ALERTS_PAYLOAD = `/${APIS.alerts.envelope.payload}`;

/**
 * How PATCHes of one pipe sent at once are judged against an order: the pipe as the model knows it (`initial`, of any
 * shape: the sequence's model of a pipe plugs in with its own `apply`), each PATCH applied in turn; an answer (its
 * payload) and the settings read after them all (its payload) must carry every setting the pipe then has.
 */
export function pipeUpdatesModel<P>(pipe: {
  readonly initial: P;
  readonly apply: (pipe: P, body: Json) => P;
  readonly settings: (pipe: P) => Json;
}): LinearModel<P, Json, unknown, unknown> {
  return {
    initial: pipe.initial,
    apply: pipe.apply,
    answer: (state, _body, answer) =>
      subsetViolations(pipe.settings(state), asObject(answer)?.settings, `${MANAGEMENT_PAYLOAD}/settings`),
    read: (state, read) => subsetViolations(pipe.settings(state), read, MANAGEMENT_PAYLOAD),
  };
}

/** A pipe's settings after a PATCH: each key it sent takes the value sent, the others keep theirs. */
export function settingsAfter(settings: Json, body: Json): Json {
  return { ...settings, ...asObject(body.settings) };
}

/**
 * How complete updates of one alert sent at once are judged against an order: each replaces every field it sends, so
 * an answer (its `data`) must be the alert as that update left it and the list read after them all must show the
 * alert as the last one of the order left it (but the fields lists omit).
 */
export function alertUpdatesModel(
  id: string,
  initial: Json | undefined,
): LinearModel<Json | undefined, Json, unknown, unknown> {
  return {
    initial,
    apply: (_state, body) => ({ id, ...alertFromUpdate(body) }),
    answer: (state, _body, answer) => (state ? subsetViolations(state, answer, ALERTS_PAYLOAD) : []),
    read: (state, list) => (state ? listedAlertViolations(state, list) : []),
  };
}

function listedAlertViolations(expected: Json, list: unknown): Violation[] {
  const entries = Array.isArray(list) ? (list as unknown[]) : [];
  const index = entries.findIndex((entry) => sameId(asObject(entry)?.id, expected.id));
  if (index === -1)
    return [{ path: ALERTS_PAYLOAD, expected: `an entry with id ${String(expected.id)}`, actual: list }];
  return subsetViolations(omitKeys(expected, new Set(LIST_OMITTED)), entries[index], `${ALERTS_PAYLOAD}/${index}`);
}

/** What a listed alert shows of updates sent at once: the updates it equals, and for each field the updates it took. */
export interface AlertOutcome {
  /** The indexes of the updates whose every listed field it carries: none for a mix. */
  readonly equalTo: readonly number[];
  /** For each field an update sets (and lists show), the indexes of the updates whose value it carries. */
  readonly fieldsFrom: Readonly<Record<string, readonly number[]>>;
}

/**
 * The listed alert against complete updates sent at once (their bodies): equal to one of them, or a mix of fields of
 * several, each named.
 */
export function alertOutcome(listed: unknown, bodies: readonly Json[]): AlertOutcome {
  const records = bodies.map((body) => omitKeys(alertFromUpdate(body), new Set(LIST_OMITTED)) as Json);
  const fields = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const carries = (index: number, field: string): boolean =>
    records[index]![field] === undefined ||
    subsetViolations(records[index]![field], asObject(listed)?.[field], '').length === 0;
  const fieldsFrom = Object.fromEntries(
    fields.map((field) => [field, records.flatMap((_, index) => (carries(index, field) ? [index] : []))]),
  );
  const equalTo = records.flatMap((_, index) => (fields.every((field) => carries(index, field)) ? [index] : []));
  return { equalTo, fieldsFrom };
}
