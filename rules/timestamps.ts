import { subsetViolations } from './subset.ts';
import { rememberingRule, type Rule, type RuleMemory, type Violation } from '../rule-model/rule.ts';
import { type Exchange, isSuccess } from '../transport/exchange.ts';
import { asObject, payload, payloadPath } from './body.ts';
import { compareInstants, instantOf } from './instant-order.ts';

/** How long after the `updatedAt` read before it an update must come (by the target's clock) to be judged on it. */
const JUDGED_AFTER_MS = 2_000;
/** How far past its answer's `Date` (whole seconds) a time the target just set may be: the second it names, and one. */
const AHEAD_OF_DATE_MS = 2_000;
/** How long before its recorded end a request may have been sent beyond its measured duration (rounding, recording). */
const RECORDING_SLACK_MS = 20;
/** How many answers of one resource the rule keeps: the latest ones. */
const KEPT_PER_RESOURCE = 16;

/** The fields a target may change on its own, beside `updatedAt`: a change of them is not the update's. */
const OWN_FIELDS = Object.freeze(['updatedAt', 'state']);

/** One answer that showed a resource: its `updatedAt`, when it ended, its `Date`, and its fields. */
interface Seen {
  readonly updatedAt: { readonly ms: number; readonly unit: number };
  readonly text: string;
  readonly answered: number;
  /** The answer's `Date` header, in ms (whole seconds): the target's clock when it answered. */
  readonly date?: number;
  readonly fields: Record<string, unknown>;
}

/** Every answer of the run that showed a resource, by API and id. */
type Memory = Map<string, Seen[]>;

/** A resource an answer shows: where (a JSON pointer), its key in the memory, its fields. */
interface Shown {
  readonly at: string;
  readonly key: string;
  readonly fields: Record<string, unknown>;
}

/** The resources a 2xx answer shows: its payload with an `id`, or each entry with one of a `data` list. */
function shown(ex: Exchange): Shown[] {
  if (!isSuccess(ex)) return [];
  const one = payload(ex);
  const list = asObject(ex.response.json)?.data;
  const entries: [string, unknown][] = one
    ? [[payloadPath(ex), one]]
    : Array.isArray(list)
      ? list.map((entry, index): [string, unknown] => [`/data/${index}`, entry])
      : [];
  return entries.flatMap(([at, value]) => {
    const fields = asObject(value);
    const id = fields?.id;
    return fields && typeof id === 'string' ? [{ at, key: `${ex.api} ${id.toLowerCase()}`, fields }] : [];
  });
}

/** When an exchange's request was sent and its answer ended, by the clock `performance.now()` reads. */
function timing(ex: Exchange): { readonly sent: number; readonly answered: number } {
  if (ex.interval) return ex.interval;
  const answered = performance.now();
  return { sent: answered - (ex.response?.durationMs ?? 0) - RECORDING_SLACK_MS, answered };
}

/** An answer's `Date` header in ms, when it has one that parses. */
function dateOf(ex: Exchange): number | undefined {
  const header = ex.response?.headers.date;
  const ms = header === undefined ? Number.NaN : Date.parse(header);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * True when two answers of a resource differ in a field both carry that the target does not change on its own, by the
 * table of equivalences (the same stored value written otherwise is no change).
 */
function changed(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return Object.keys(after).some(
    (field) =>
      !OWN_FIELDS.includes(field) && field in before && subsetViolations(before[field], after[field], '').length > 0,
  );
}

/**
 * Every violation of one resource an answer shows, against the answers of it that ended before its request was sent.
 */
function resourceViolations(ex: Exchange, resource: Shown, before: readonly Seen[]): Violation[] {
  const updatedAt = instantOf(resource.fields.updatedAt);
  if (!updatedAt) return [];
  const path = `${resource.at}/updatedAt`;
  const violations: Violation[] = [];
  const createdAt = instantOf(resource.fields.createdAt);
  if (createdAt && compareInstants(updatedAt, createdAt) < 0)
    violations.push({
      path,
      expected: `not before createdAt ${String(resource.fields.createdAt)}`,
      actual: resource.fields.updatedAt,
    });
  const latest = before.reduce<Seen | undefined>(
    (max, seen) => (max === undefined || compareInstants(seen.updatedAt, max.updatedAt) > 0 ? seen : max),
    undefined,
  );
  if (latest && compareInstants(updatedAt, latest.updatedAt) < 0)
    violations.push({
      path,
      expected: `not before ${latest.text}, which an earlier answer showed`,
      actual: resource.fields.updatedAt,
    });
  const last = before.at(-1);
  const date = dateOf(ex);
  const isUpdate = ex.request.method !== 'GET' && ex.request.method !== 'POST';
  if (!isUpdate || !last || last.date === undefined || last.date < last.updatedAt.ms + JUDGED_AFTER_MS)
    return violations;
  if (!changed(last.fields, resource.fields)) return violations;
  // The change was made after the read before it was answered, so at a time no earlier than that read's Date.
  if (Math.floor(updatedAt.ms / 1000) * 1000 < last.date)
    violations.push({
      path,
      expected:
        `the time of this update, which changed the resource: not before ${new Date(last.date).toISOString()} ` +
        `(the Date of the answer before it, which showed updatedAt ${last.text})`,
      actual: resource.fields.updatedAt,
    });
  else if (date !== undefined && updatedAt.ms >= date + AHEAD_OF_DATE_MS)
    violations.push({
      path,
      expected: `the time of this update: not after its answer's Date ${new Date(date).toISOString()}`,
      actual: resource.fields.updatedAt,
    });
  return violations;
}

/** The answers that showed each resource; an exchange adds its own once judged. */
const seenResources: RuleMemory<Memory> = {
  create: () => new Map(),
  answered(memory, ex) {
    const { answered } = timing(ex);
    const date = dateOf(ex);
    for (const resource of shown(ex)) {
      const updatedAt = instantOf(resource.fields.updatedAt);
      if (!updatedAt) continue;
      const kept = memory.get(resource.key) ?? [];
      kept.push({
        updatedAt,
        text: String(resource.fields.updatedAt),
        answered,
        ...(date === undefined ? {} : { date }),
        fields: resource.fields,
      });
      kept.sort((a, b) => a.answered - b.answered);
      memory.set(resource.key, kept.slice(-KEPT_PER_RESOURCE));
    }
  },
};

/** The rule that the times a target sets hold together. */
export const timestampRules: Rule[] = [
  rememberingRule({
    id: 'timestamps.consistent',
    title: 'Times the target sets hold together',
    basis: 'inferred',
    sentence:
      "The times a target sets hold together: a resource's `updatedAt` is never before its `createdAt` and never " +
      "moves back, and an accepted update that changes a resource moves its `updatedAt` to the update's time, by " +
      "the target's own clock (its `Date` header, or a time it has just set), at the precision it keeps.",
    probedBy:
      "every pipe and alert answer and read; updates that came two seconds or more (by the target's clock) " +
      'after the `updatedAt` read before them',
    operations: ['createPipe', 'updatePipe', 'updateAlert', 'listAlerts'],
    memory: seenResources,
    applies: (ex) => isSuccess(ex),
    check: (ex, _context, memory) => {
      const { sent } = timing(ex);
      return shown(ex).flatMap((resource) =>
        resourceViolations(
          ex,
          resource,
          (memory.get(resource.key) ?? []).filter((seen) => seen.answered <= sent),
        ),
      );
    },
  }),
];
