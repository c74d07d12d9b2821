import type { Json, JsonObject } from './json.ts';
import { problem, type Problem } from './problem.ts';
import type { Route } from './route.ts';
import { checkOrganization, organizationOf } from './scope.ts';
import { DAY_MS, formatDay, parseDateOrDateTime, type ParsedTime } from './timestamp.ts';

/** The longest accepted period: `to_date` at most 30 days after `from_date`. */
export const MAX_PERIOD_MS = 30 * DAY_MS;

const PARAMS = Object.freeze(['from_date', 'to_date'] as const);

/** The period of a usage query as parsed; either end may be missing or invalid. */
export interface UsagePeriod {
  readonly from: ParsedTime | undefined;
  readonly to: ParsedTime | undefined;
}

/** Parses the period of a usage query (the hook input of the operation). */
export function usagePeriod(input: Json | undefined): UsagePeriod {
  const read = (name: string): ParsedTime | undefined => {
    const value = typeof input === 'object' && input !== null && !Array.isArray(input) ? input[name] : undefined;
    return typeof value === 'string' ? parseDateOrDateTime(value) : undefined;
  };
  return { from: read('from_date'), to: read('to_date') };
}

/** The query of a usage request as a JSON object (first value of each parameter). */
export function usageInput(query: URLSearchParams): JsonObject {
  const input: JsonObject = {};
  for (const name of PARAMS) {
    const value = query.get(name);
    if (value !== null) input[name] = value;
  }
  return input;
}

/** The calendar days a period covers: days that lie within it both as written and in UTC. */
export function periodDays(period: UsagePeriod): { readonly first: number; readonly last: number } | undefined {
  const from = period.from ?? period.to;
  const to = period.to ?? period.from;
  if (from === undefined || to === undefined) return undefined;
  return { first: Math.max(from.writtenDay, from.utcDay), last: Math.min(to.writtenDay, to.utcDay) };
}

/** GET .../usageCost: daily cost entries over a period of at most 30 days, `to_date` included. */
export const getUsageCost: Route = {
  method: 'GET',
  path: ['v1', 'organizations', ':organizationId', 'usageCost'],
  operation: 'getUsageCost',
  hasBody: false,
  check: (call) => {
    const scope = checkOrganization(call);
    if (scope.length > 0) return scope;
    const found: Problem[] = [];
    for (const name of PARAMS) {
      const values = call.query.getAll(name);
      if (values.length === 0) found.push(problem(name, 'required', `query parameter ${name} is required`));
      else if (values.length > 1) found.push(problem(name, 'repeated', `query parameter ${name} must be given once`));
      else if (parseDateOrDateTime(values[0] ?? '') === undefined) {
        found.push(problem(name, 'format', `${name} must be an RFC 3339 date-time or a YYYY-MM-DD date`));
      }
    }
    const { from, to } = usagePeriod(usageInput(call.query));
    if (from !== undefined && to !== undefined) {
      if (to.instantMs < from.instantMs)
        found.push(problem('to_date', 'period-order', 'to_date must not be before from_date'));
      else if (to.instantMs - from.instantMs > MAX_PERIOD_MS) {
        found.push(problem('to_date', 'period-too-long', 'to_date must be at most 30 days after from_date'));
      }
    }
    return found;
  },
  apply: (call) => {
    const days = periodDays(usagePeriod(usageInput(call.query)));
    const costs: JsonObject[] = [];
    if (days !== undefined) {
      for (let day = days.first; day <= days.last; day += 1)
        costs.push(costEntry(organizationOf(call)!.service, day, call.now));
    }
    return { kind: 'ok', result: { grandTotalCredits: totalOf(costs), costs } };
  },
};

/** One day's cost entry of the service; amounts are a deterministic function of the day. */
export function costEntry(service: JsonObject, day: number, now: Date): JsonObject {
  const base = 5 + ((day * 7919) % 1000) / 100;
  const metrics = {
    storageCredits: round(base * 0.3),
    backupCredits: round(base * 0.05),
    computeCredits: round(base * 0.6),
    dataTransferCredits: round(base * 0.03),
    initialLoadCredits: 0,
    publicDataTransferCredits: round(base * 0.02),
    interRegionTier1DataTransferCredits: 0,
    interRegionTier2DataTransferCredits: 0,
    interRegionTier3DataTransferCredits: 0,
    interRegionTier4DataTransferCredits: 0,
  };
  return {
    dataWarehouseId: service.dataWarehouseId,
    serviceId: service.id,
    date: formatDay(day),
    entityId: service.id,
    entityName: service.name,
    totalCredits: round(Object.values(metrics).reduce((sum, value) => sum + value, 0)),
    locked: (day + 1) * DAY_MS <= now.getTime(),
    metrics,
  };
}

/** The sum of the entries' `totalCredits`, rounded to cents. */
export function totalOf(costs: readonly JsonObject[]): number {
  return round(
    costs.reduce((sum, entry) => sum + (typeof entry.totalCredits === 'number' ? entry.totalCredits : 0), 0),
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
