/** An RFC 3339 date-time: its second, its fraction and its offset. */
const DATE_TIME = /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/;

/**
 * An RFC 3339 date-time as an instant in milliseconds (with any fraction below them) and the unit of the precision it
 * is written at (1000 for whole seconds, 1 for milliseconds, 0.001 for microseconds); undefined for anything else.
 */
export function instantOf(text: unknown): { readonly ms: number; readonly unit: number } | undefined {
  const m = typeof text === 'string' ? DATE_TIME.exec(text) : null;
  if (!m) return undefined;
  const seconds = Date.parse(`${m[1]!.replace(/[t ]/, 'T')}${m[3]!.toUpperCase()}`);
  if (Number.isNaN(seconds)) return undefined;
  const fraction = m[2] ?? '';
  return { ms: seconds + (fraction === '' ? 0 : Number(`0.${fraction}`) * 1000), unit: 1000 / 10 ** fraction.length };
}

/**
 * How two instants compare at the coarser of their precisions (`instantOf`), so that a target keeping whole seconds
 * for one and milliseconds for the other is not taken to go back: negative when `a` is before `b`, 0 when the same.
 */
export function compareInstants(
  a: { readonly ms: number; readonly unit: number },
  b: { readonly ms: number; readonly unit: number },
): number {
  const unit = Math.max(a.unit, b.unit);
  return Math.floor(a.ms / unit) - Math.floor(b.ms / unit);
}
