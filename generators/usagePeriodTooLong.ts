import * as fc from 'fast-check';
import { dateTime } from './dateTime.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';
import type { UsagePeriod } from './usagePeriod.ts';

const DAY = 86_400_000;
const LIMIT = 30 * DAY;

/** A fixed past UTC midnight, the default anchor, so that default values do not depend on the clock. */
const DEFAULT_ANCHOR = new Date(Date.UTC(2026, 0, 1));

/**
 * Usage periods whose `to_date` lies from 30 days and 1 second up to 90 days after `from_date`, both valid RFC 3339
 * date-times.
 */
export const usagePeriodTooLong: InvalidGenerator<UsagePeriod, { anchor?: Date; spreadDays?: number }> = Object.freeze({
  breaks: 'usage.period-limit',
  description: 'a usage period longer than 30 days (30 days and 1 second to 90 days), both dates valid',
  arbitrary: (constraints: { anchor?: Date; spreadDays?: number } = {}) => {
    const { anchor = DEFAULT_ANCHOR, spreadDays = 30 } = constraints;
    const length = fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom(LIMIT + 1000, LIMIT + DAY, 90 * DAY) },
      { weight: 4, arbitrary: fc.integer({ min: LIMIT / 1000 + 1, max: (90 * DAY) / 1000 }).map((s) => s * 1000) },
    );
    return fc.tuple(fc.integer({ min: 0, max: spreadDays * 86_400 }), length).chain(([offset, span]) => {
      const from = anchor.getTime() + offset * 1000;
      return fc.record(
        { from_date: dateTime({ at: from }), to_date: dateTime({ at: from + span }) },
        { noNullPrototype: true },
      );
    });
  },
  witness: (period: UsagePeriod) => Date.parse(period.to_date) - Date.parse(period.from_date) > LIMIT,
});
