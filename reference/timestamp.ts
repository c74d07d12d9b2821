/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;

/** A parsed timestamp: its instant, and its calendar day both as written and in UTC (days since the epoch). */
export interface ParsedTime {
  readonly instantMs: number;
  readonly writtenDay: number;
  readonly utcDay: number;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses an RFC 3339 date-time (any offset, any fraction), or returns undefined. */
export function parseDateTime(text: string): ParsedTime | undefined {
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(
    Number,
  );
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = m[9] === '-' ? -1 : 1;
  const fractionMs = m[7] === undefined ? 0 : Number(`0${m[7]}`) * 1000;
  const local = utcMs(year, month, day) + ((hour * 60 + minute) * 60 + second) * 1000 + fractionMs;
  const instantMs = local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return { instantMs, writtenDay: utcMs(year, month, day) / DAY_MS, utcDay: Math.floor(instantMs / DAY_MS) };
}

/** Parses an RFC 3339 date-time or a full date `YYYY-MM-DD` (midnight UTC), or returns undefined. */
export function parseDateOrDateTime(text: string): ParsedTime | undefined {
  const m = FULL_DATE.exec(text);
  if (m === null) return parseDateTime(text);
  const [year = 0, month = 0, day = 0] = [m[1], m[2], m[3]].map(Number);
  if (!validDate(year, month, day)) return undefined;
  const instantMs = utcMs(year, month, day);
  return { instantMs, writtenDay: instantMs / DAY_MS, utcDay: instantMs / DAY_MS };
}

/** Formats a day number (days since the epoch) as `YYYY-MM-DD`. */
export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(utcMs(year, month + 1, 1) - DAY_MS).getUTCDate();
  return day <= daysInMonth;
}

function utcMs(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}
