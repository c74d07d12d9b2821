import * as fc from 'fast-check';

const pad = (n: number): string => String(n).padStart(2, '0');

function format(epochMs: number, offsetMinutes: number | 'Z', fraction: boolean): string {
  const shift = offsetMinutes === 'Z' ? 0 : offsetMinutes;
  const iso = new Date(epochMs + shift * 60_000).toISOString();
  const zone = offsetMinutes === 'Z' ? 'Z' : utcOffset(offsetMinutes);
  return iso.slice(0, 19) + (fraction ? iso.slice(19, 23) : '') + zone;
}

/** The instant `epochMs` as RFC 3339 writes it at `offsetMinutes` from UTC (or in `Z`), with milliseconds. */
export function dateTimeAt(epochMs: number, offsetMinutes: number | 'Z'): string {
  return format(epochMs, offsetMinutes, true);
}

/** An offset from UTC in minutes as RFC 3339 writes it: `+05:30`, `-12:00`. */
function utcOffset(minutes: number): string {
  const size = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(size / 60))}:${pad(size % 60)}`;
}

/** Where a date-time is written: mostly in `Z`, sometimes at a `±hh:mm` offset (minutes from UTC, on the quarter). */
export const UTC_OFFSET: fc.Arbitrary<number | 'Z'> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<'Z'>('Z') },
  { weight: 1, arbitrary: fc.integer({ min: -48, max: 56 }).map((quarters) => quarters * 15) },
);

/**
 * RFC 3339 date-times naming exactly the instant `at`: at `offset` when given, else mostly in `Z` and sometimes with a
 * `±hh:mm` offset, with fractional seconds when the instant needs them or by chance.
 */
export function dateTime(constraints: { at: Date | number; offset?: number | 'Z' }): fc.Arbitrary<string> {
  const epochMs = typeof constraints.at === 'number' ? constraints.at : constraints.at.getTime();
  if (!Number.isFinite(epochMs)) throw new RangeError('dateTime: `at` must be a valid instant');
  const zone = constraints.offset === undefined ? UTC_OFFSET : fc.constant(constraints.offset);
  const fraction =
    epochMs % 1000 === 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })
      : fc.constant(true);
  return fc.tuple(zone, fraction).map(([offset, withFraction]) => format(epochMs, offset, withFraction));
}
