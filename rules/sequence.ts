import { jsonText } from '../core/json-text.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Violation } from '../rule-model/rule.ts';
import { asObject, payload, payloadPath, sameId } from './body.ts';
import { sameStoredValue } from '../core/sameness.ts';
import { documentedProperty, subsetViolations } from './subset.ts';

/** The part of a rule that only model-based sequences give evidence for. */
export const SEQUENCE_PART = 'model-based sequences';

/** The fields that tell one table mapping from another: a removal names a mapping by them. */
export const TABLE_KEY_FIELDS = Object.freeze(['sourceSchemaName', 'sourceTable', 'targetTable'] as const);

/** A table mapping by the fields that name it. */
export type TableKey = Readonly<Record<(typeof TABLE_KEY_FIELDS)[number], string>>;

/**
 * What the model of a sequence expects a pipe to read as after every write before it (`probe.expect.pipeState`): each
 * value known from the writes, the table mappings present and the ones removed; for a create (whose answer
 * `pipes.reflects-request` judges), only the other pipes' ids.
 */
export interface PipeState {
  /** The pipe the request names (update, settings read); absent for a create. */
  readonly id?: string;
  /** The ids of the other pipes the sequence created: a create must answer a pipe of its own. */
  readonly others?: readonly string[];
  readonly name?: string;
  /** The `createdAt` its create answered: no later write changes it. */
  readonly createdAt?: string;
  readonly settings?: Readonly<Record<string, unknown>>;
  readonly columns?: readonly unknown[];
  readonly fieldMappings?: readonly unknown[];
  /** For a relational source: every mapping that must be there (one copy or more), and the names of removed ones. */
  readonly tableMappings?: {
    readonly present: readonly Record<string, unknown>[];
    readonly absent: readonly TableKey[];
  };
}

/**
 * What a list read of a sequence expects of the alerts it did not update (`probe.expect.others`): each as listed
 * before.
 */
export type OtherAlerts = readonly Record<string, unknown>[];

/** Whether a table mapping carries the naming fields of `key`. */
export function sameTable(mapping: unknown, key: TableKey): boolean {
  const object = asObject(mapping);
  return object !== undefined && TABLE_KEY_FIELDS.every((field) => sameStoredValue(key[field], object[field]));
}

/** The naming fields of a table mapping. */
export function tableKey(mapping: Readonly<Record<string, unknown>>): TableKey {
  return {
    sourceSchemaName: String(mapping.sourceSchemaName),
    sourceTable: String(mapping.sourceTable),
    targetTable: String(mapping.targetTable),
  };
}

/**
 * Where a pipe answer (create, update, settings read) differs from what the model expects of it; `schema` is the
 * documented schema of the answer's payload.
 */
export function pipeStateViolations(ex: Exchange, schema?: unknown): Violation[] {
  const state = ex.probe.expect?.pipeState as PipeState;
  const result = payload(ex) ?? {};
  const path = payloadPath(ex);
  const at = (key: string): unknown => documentedProperty(schema, key);
  if (ex.operationId === 'getPipeSettings') return subsetViolations(state.settings ?? {}, result, path, schema);
  const violations: Violation[] = [];
  if (state.id !== undefined && !sameId(result.id, state.id))
    violations.push({ path: `${path}/id`, expected: `the pipe the request names, ${state.id}`, actual: result.id });
  const other = state.others?.find((id) => sameId(result.id, id));
  if (other !== undefined)
    violations.push({
      path: `${path}/id`,
      expected: 'a pipe of its own, not one created before it',
      actual: result.id,
    });
  if (state.createdAt !== undefined && !sameStoredValue(state.createdAt, result.createdAt, { format: 'date-time' }))
    violations.push({
      path: `${path}/createdAt`,
      expected: `${state.createdAt}, as its create answered`,
      actual: result.createdAt,
    });
  if (state.name !== undefined && !sameStoredValue(state.name, result.name, { type: 'string' }))
    violations.push({ path: `${path}/name`, expected: jsonText(state.name), actual: result.name });
  if (state.settings)
    violations.push(...subsetViolations(state.settings, result.settings, `${path}/settings`, at('settings')));
  if (state.columns)
    violations.push(
      ...subsetViolations(
        state.columns,
        asObject(result.destination)?.columns,
        `${path}/destination/columns`,
        documentedProperty(at('destination'), 'columns'),
      ),
    );
  if (state.fieldMappings)
    violations.push(
      ...subsetViolations(state.fieldMappings, result.fieldMappings, `${path}/fieldMappings`, at('fieldMappings')),
    );
  if (state.tableMappings)
    violations.push(
      ...tableMappingStateViolations(state.tableMappings, result, `${path}/source/relational/tableMappings`),
    );
  return violations;
}

/**
 * Table mappings against the model: each expected one there (a second copy allowed), none removed, none the model does
 * not know.
 */
function tableMappingStateViolations(
  expected: NonNullable<PipeState['tableMappings']>,
  result: Record<string, unknown>,
  path: string,
): Violation[] {
  const listed = asObject(asObject(result.source)?.relational)?.tableMappings;
  const actual = Array.isArray(listed) ? (listed as unknown[]) : [];
  const violations: Violation[] = [];
  for (const mapping of expected.present) {
    if (!actual.some((m) => subsetViolations(mapping, m, '').length === 0))
      violations.push({ path, expected: `to include ${jsonText(mapping)}`, actual: listed });
  }
  for (const key of expected.absent) {
    if (actual.some((m) => sameTable(m, key)))
      violations.push({ path, expected: `not to include the removed mapping ${jsonText(key)}`, actual: listed });
  }
  const unknown = actual.filter((m) => !expected.present.some((known) => sameTable(m, tableKey(known))));
  if (unknown.length > 0)
    violations.push({
      path,
      expected: `only the mappings written to this pipe: ${unknown.length} more`,
      actual: listed,
    });
  return violations;
}

/**
 * What the target may change of an alert on its own: `state`, whose values and transitions are not shown (an evaluation
 * of the alert may move it at any time), and `updatedAt`, which storing such an evaluation may move, the state changed
 * or not.
 */
const SET_BY_THE_TARGET: ReadonlySet<string> = new Set(['state', 'updatedAt']);

/**
 * How an alert other than the one under test differs from how it was listed before: every field it had, compared, but
 * those the target may change on its own (SET_BY_THE_TARGET).
 */
export function otherAlertChanges(
  before: Readonly<Record<string, unknown>>,
  after: unknown,
  path: string,
): Violation[] {
  const kept = Object.fromEntries(Object.entries(before).filter(([key]) => !SET_BY_THE_TARGET.has(key)));
  return subsetViolations(kept, after, path);
}

/**
 * Where a list read (`value`, its payload) shows another alert other than as listed before the sequence's updates, or
 * an update answers another alert.
 */
export function alertIsolationViolations(ex: Exchange, value: unknown): Violation[] {
  const path = payloadPath(ex);
  if (ex.operationId === 'updateAlert') {
    const id = asObject(value)?.id;
    return sameId(id, ex.request.params.id)
      ? []
      : [{ path: `${path}/id`, expected: `the alert the request names, ${ex.request.params.id}`, actual: id }];
  }
  const entries = Array.isArray(value) ? (value as unknown[]) : [];
  return ((ex.probe.expect?.others ?? []) as OtherAlerts).flatMap((before) => {
    const index = entries.findIndex((entry) => sameId(asObject(entry)?.id, before.id));
    if (index === -1) return [{ path, expected: `the alert ${String(before.id)}, which it listed before` }];
    const changed = otherAlertChanges(before, entries[index], `${path}/${index}`);
    return changed.length === 0
      ? []
      : [
          {
            path: `${path}/${index}`,
            expected: `alert ${String(before.id)} as listed before: ${jsonText(before)}`,
            actual: entries[index],
          },
        ];
  });
}
