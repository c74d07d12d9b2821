import { sameStoredValue, sameTotal, TOTAL_ROUNDING } from '../core/sameness.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { asObject, payload, payloadPath, probes } from './body.ts';
import { intentViolations, pairedParts } from './intent.ts';

/** The calendar days (YYYY-MM-DD) an instant may name: its own date as written, and its UTC date. */
function days(value: string | undefined): string[] {
  if (!value) return [];
  const written = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  const parsed = Date.parse(value);
  const utc = Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString().slice(0, 10);
  return [written, utc].filter((d): d is string => d !== undefined);
}

/** The cost entries of a usage result: `costs` as one entry or as a list. */
export function costEntries(result: Record<string, unknown> | undefined): unknown[] {
  const costs = result?.costs;
  if (Array.isArray(costs)) return costs;
  return costs === undefined ? [] : [costs];
}

/** Cost entries dated outside the period asked for. */
function outsideThePeriod(ex: Exchange): Violation[] {
  const from = days(ex.request.query.from_date).sort()[0];
  const to = days(ex.request.query.to_date).sort().at(-1);
  if (!from || !to) return [];
  const list = Array.isArray(payload(ex)?.costs);
  return costEntries(payload(ex)).flatMap((entry, index) => {
    const date = asObject(entry)?.date;
    return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && (date < from || date > to)
      ? [
          {
            path: list ? `${payloadPath(ex)}/costs/${index}/date` : `${payloadPath(ex)}/costs/date`,
            expected: `a date from ${from} to ${to}`,
            actual: date,
          },
        ]
      : [];
  });
}

/**
 * For a period ending on a day that a wider period showed entries for (`probe.expect.entriesOn`): that day's entries
 * are missing.
 */
function lastDayMissing(ex: Exchange): Violation[] {
  const day = ex.probe.expect?.entriesOn;
  if (typeof day !== 'string') return [];
  const shown = costEntries(payload(ex)).some((entry) =>
    sameStoredValue(day, asObject(entry)?.date, { format: 'date' }),
  );
  return shown
    ? []
    : [
        {
          path: `${payloadPath(ex)}/costs`,
          expected:
            `the entries of ${day}, the period's last day (to_date is inclusive; a wider period showed ` +
            'entries of that day)',
          actual: `no entry dated ${day}`,
        },
      ];
}

/**
 * `grandTotalCredits` against the sum of the entries' `totalCredits`, when every entry carries a number (else the
 * schema rule speaks).
 */
function grandTotalViolations(ex: Exchange): Violation[] {
  const result = payload(ex)!;
  const totals = costEntries(result).map((entry) => asObject(entry)?.totalCredits);
  if (!totals.every((total): total is number => typeof total === 'number')) return [];
  const sum = totals.reduce((a, b) => a + b, 0);
  const grand = result.grandTotalCredits as number;
  return sameTotal(totals, grand)
    ? []
    : [
        {
          path: `${payloadPath(ex)}/grandTotalCredits`,
          expected:
            `the sum of the ${totals.length} listed entries' totalCredits, ${Number(sum.toFixed(6))} (within ` +
            `${Number((TOTAL_ROUNDING * Math.max(1, totals.length)).toFixed(6))} for rounding)`,
          actual: grand,
        },
      ];
}

/** Rules of the usage cost operation. */
export const usageRules: Rule[] = [
  {
    id: 'usage.period-limit',
    title: 'Usage periods are at most 30 days',
    basis: 'stated',
    sentence:
      'A period with `to_date` exactly 30 days after `from_date` (or less) is accepted; one with `to_date` 31 days ' +
      'or more after `from_date` is rejected. Between the two (30 days and a part of a day: the same last date, a ' +
      'later time) is observed only: the documents give both "at most 30 days after" and "a maximum queried period ' +
      'of 31 days", and a target that counts UTC days (as the vendor\'s published API does) accepts it.',
    probedBy:
      'the boundary, both sides, from `from_date`s in months of 28, 30 and 31 days within the last year (a limit ' +
      'written as "one calendar month" differs only there), and random periods',
    operations: ['getUsageCost'],
    ...pairedParts('30 days or less accepted', '31 days or more rejected'),
    applies: (ex) => probes(ex, 'usage.period-limit') && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'usage.required-params',
    title: 'from_date and to_date are required',
    basis: 'stated',
    sentence: 'A request without `from_date` or without `to_date` is rejected.',
    probedBy: 'each missing',
    operations: ['getUsageCost'],
    parts: [{ name: 'no from_date rejected' }, { name: 'no to_date rejected' }],
    partOf: (ex) =>
      ex.probe.intent !== 'reject'
        ? undefined
        : ex.request.query.from_date === undefined
          ? 'no from_date rejected'
          : ex.request.query.to_date === undefined
            ? 'no to_date rejected'
            : undefined,
    applies: (ex) => probes(ex, 'usage.required-params') && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'usage.grand-total',
    title: 'grandTotalCredits is the sum of the listed entries',
    basis: 'stated',
    sentence:
      '`grandTotalCredits` is the total over the period: it equals the sum of the `totalCredits` of the ' +
      'cost entries the answer lists (one entry or a list), up to rounding.',
    probedBy: 'every accepted period',
    operations: ['getUsageCost'],
    applies: (ex) => isSuccess(ex) && typeof payload(ex)?.grandTotalCredits === 'number',
    check: grandTotalViolations,
  },
  {
    id: 'usage.to-date-inclusive',
    title: 'Cost entries lie within the period, both ends included',
    basis: 'stated',
    sentence:
      "Every cost entry's `date` lies within `from_date` .. `to_date`, both ends included, and a period " +
      "that ends on a day returns that day's entries.",
    probedBy: 'every accepted period; and a period ending on a day for which a wider period showed entries',
    operations: ['getUsageCost'],
    parts: [{ name: 'entries within the period' }, { name: "a period ending on a day returns that day's entries" }],
    partOf: (ex) =>
      typeof ex.probe.expect?.entriesOn === 'string'
        ? "a period ending on a day returns that day's entries"
        : 'entries within the period',
    applies: (ex) =>
      isSuccess(ex) &&
      payload(ex) !== undefined &&
      ex.request.query.from_date !== undefined &&
      ex.request.query.to_date !== undefined,
    check: (ex) => [...outsideThePeriod(ex), ...lastDayMissing(ex)],
  },
];
