import * as fc from 'fast-check';
import type { InvalidGenerator } from './invalidGenerator.ts';
import { usagePeriod, type UsagePeriod } from './usagePeriod.ts';

const DEFAULT_ANCHOR = new Date(Date.UTC(2026, 0, 1));

/** Usage queries built from a valid period with `from_date`, `to_date` or both left out. */
export const usageQueryMissingParam: InvalidGenerator<Partial<UsagePeriod>, { anchor?: Date }> = Object.freeze({
  breaks: 'usage.required-params',
  description: 'a usage query without from_date, without to_date, or without both; any date sent is valid',
  arbitrary: (constraints: { anchor?: Date } = {}) =>
    fc
      .tuple(
        usagePeriod({ anchor: constraints.anchor ?? DEFAULT_ANCHOR }),
        fc.constantFrom('from_date', 'to_date', 'both'),
      )
      .map(
        ([period, missing]): Partial<UsagePeriod> => ({
          ...(missing === 'from_date' || missing === 'both' ? {} : { from_date: period.from_date }),
          ...(missing === 'to_date' || missing === 'both' ? {} : { to_date: period.to_date }),
        }),
      ),
  witness: (query: Partial<UsagePeriod>) => !('from_date' in query) || !('to_date' in query),
});
