import type { Hooks } from './hooks.ts';
import { isObject, type JsonObject } from './json.ts';
import { totalOf } from './usage.ts';

const DAY_MS = 86_400_000;

/**
 * Hooks of a target whose organization's service has existed for `days` days before the target started: a usage answer
 * lists no cost entry of a day before that (its total with them), as a deployment whose data starts on its first day.
 */
export function usageFromDaysBack(days: number): Hooks {
  const first = new Date(Math.floor(Date.now() / DAY_MS - days) * DAY_MS).toISOString().slice(0, 10);
  return {
    result: (ctx, r) => {
      if (ctx.operation !== 'getUsageCost' || !Array.isArray(r.costs)) return r;
      const costs = r.costs.filter(
        (entry): entry is JsonObject => isObject(entry) && typeof entry.date === 'string' && entry.date >= first,
      );
      return { ...r, grandTotalCredits: totalOf(costs), costs };
    },
  };
}
