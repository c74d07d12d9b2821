import * as fc from 'fast-check';
import { dateTime, UTC_OFFSET } from './dateTime.ts';

/** The query of a usage cost request. */
export type UsagePeriod = {
  from_date: string;
  to_date: string;
};

const DAY = 86_400_000;

/**
 * Valid usage periods: `from_date` between `anchor` and `anchor + spreadDays` (default 30), `to_date` 0 to exactly
 * `maxDays` (default and at most 30) days later as instants, both RFC 3339 date-times written at one offset (so that
 * the dates as written are as far apart as the UTC dates: a target that reads the written dates accepts them too), the
 * bounds drawn often.
 */
export function usagePeriod(constraints: {
  anchor: Date;
  maxDays?: number;
  spreadDays?: number;
}): fc.Arbitrary<UsagePeriod> {
  const { anchor, maxDays = 30, spreadDays = 30 } = constraints;
  if (!(maxDays >= 0 && maxDays <= 30)) throw new RangeError('usagePeriod: maxDays must be between 0 and 30');
  const max = maxDays * DAY;
  const start = fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: spreadDays * 86_400 }).map((s) => s * 1000) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: spreadDays * DAY }) },
  );
  const length = fc.oneof(
    { weight: 1, arbitrary: fc.constant(max) },
    { weight: 1, arbitrary: fc.constant(0) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: max / 1000 }).map((s) => s * 1000) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max }) },
  );
  return fc.tuple(start, length, UTC_OFFSET).chain(([offset, span, zone]) => {
    const from = anchor.getTime() + offset;
    return fc.record(
      { from_date: dateTime({ at: from, offset: zone }), to_date: dateTime({ at: from + span, offset: zone }) },
      { noNullPrototype: true },
    );
  });
}
