/** An RFC 3339 date-time: its second, its fraction and its offset. */
const DATE_TIME = /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/;

/**
 * Whether two RFC 3339 date-times name the same instant, in any offset and with any fraction written (`10:00:00Z` is
 * `15:30:00.000+05:30`); a text that is no date-time is the same only as itself.
 */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return Object.is(a, b);
  const [x, y] = [DATE_TIME.exec(a), DATE_TIME.exec(b)];
  if (!x || !y) return a === b;
  const seconds = (m: RegExpExecArray): number => Date.parse(`${m[1]!.replace(/[t ]/, 'T')}${m[3]!.toUpperCase()}`);
  const fraction = (m: RegExpExecArray): string => (m[2] ?? '').replace(/0+$/, '');
  return seconds(x) === seconds(y) && !Number.isNaN(seconds(x)) && fraction(x) === fraction(y);
}
