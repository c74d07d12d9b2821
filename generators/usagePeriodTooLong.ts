import * as fc from 'fast-check';
import { dateTime } from './dateTime.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';
import type { UsagePeriod } from './usagePeriod.ts';

const DAY = 86_400_000;
/** The shortest period every reading refuses: `to_date` 31 days after `from_date` (RULES.md, `usage.period-limit`). */
const REFUSED_FROM = 31 * DAY;

/** A fixed past UTC midnight, the default anchor, so that default values do not depend on the clock. */
const DEFAULT_ANCHOR = new Date(Date.UTC(2026, 0, 1));

/**
 * Usage periods whose `to_date` lies from 31 days up to 90 days after `from_date`, both valid RFC 3339 date-times:
 * refused by every reading of the limit (30 days and a part of a day is observed only).
 */
export const usagePeriodTooLong: InvalidGenerator<UsagePeriod, { anchor?: Date; spreadDays?: number }> = Object.freeze({
  breaks: 'usage.period-limit',
  description: 'a usage period of 31 days or more (31 to 90 days), both dates valid',
  arbitrary: (constraints: { anchor?: Date; spreadDays?: number } = {}) => {
    const { anchor = DEFAULT_ANCHOR, spreadDays = 30 } = constraints;
    const length = fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(REFUSED_FROM, REFUSED_FROM + 1000, 90 * DAY) },
      { weight: 4, arbitrary: fc.integer({ min: REFUSED_FROM / 1000, max: (90 * DAY) / 1000 }).map((s) => s * 1000) },
    );
    return fc.tuple(fc.integer({ min: 0, max: spreadDays * 86_400 }), length).chain(([offset, span]) => {
      const from = anchor.getTime() + offset * 1000;
      return fc.record(
        { from_date: dateTime({ at: from }), to_date: dateTime({ at: from + span }) },
        { noNullPrototype: true },
      );
    });
  },
  witness: (period: UsagePeriod) => Date.parse(period.to_date) - Date.parse(period.from_date) >= REFUSED_FROM,
});
