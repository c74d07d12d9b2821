/**
 * JSON text that keeps every integer exactly: a response's integer past 2^53 parses as a bigint, as the target wrote
 * it, and a request's bigint is written as its digits, so that what was sent and what came back compare as the JSON
 * texts say, never as doubles rounded them.
 */

/** A random mark for an integer carried as a string while parsing or writing; no text a target sends holds it. */
const MARK_ID = `big${Math.random().toString(36).slice(2, 10)}:`;
const MARK = `\u0002${MARK_ID}`;
const MARK_ESCAPED = `\\u0002${MARK_ID}`;
const MARKED_DIGITS = new RegExp(`"\\\\u0002${MARK_ID}(-?\\d+)"`, 'g');
/** A JSON number token at the start of a string. */
const NUMBER_TOKEN = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses JSON text as JSON.parse does, but an integer a double cannot hold exactly becomes a bigint. */
export function parseJsonText(text: string): unknown {
  // Fast path: an integer past 2^53 has at least 16 digits.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const parts: string[] = [];
  let copied = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x2d || (char >= 0x30 && char <= 0x39)) {
      NUMBER_TOKEN.lastIndex = at;
      const token = NUMBER_TOKEN.exec(text)?.[0] ?? '';
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        parts.push(text.slice(copied, at), `"${MARK_ESCAPED}${token}"`);
        copied = at + token.length;
      }
      at += Math.max(token.length, 1) - 1;
    }
  }
  parts.push(text.slice(copied));
  return JSON.parse(parts.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(MARK) ? BigInt(value.slice(MARK.length)) : value,
  );
}

/** JSON.stringify that writes a bigint as its digits (JSON.stringify alone throws on one). */
export function jsonText(value: unknown, indent?: number): string {
  // Fast path: nearly every value holds no bigint, and JSON.stringify without a replacer is several times faster.
  try {
    return JSON.stringify(value, undefined, indent) as string;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  let marked = false;
  const text = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item !== 'bigint') return item;
      marked = true;
      return `${MARK}${item.toString()}`;
    },
    indent,
  ) as string | undefined;
  return marked && text !== undefined ? text.replace(MARKED_DIGITS, '$1') : (text as string);
}

/**
 * A copy of a JSON value with every bigint as the nearest number (for a schema validator, which knows no bigint); one
 * no double holds as the largest double of its sign: a number all the same, observed only (RULES.md).
 */
export function withoutBigInts(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const nearest = Number(value);
    return Number.isFinite(nearest) ? nearest : Math.sign(nearest) * Number.MAX_VALUE;
  }
  if (Array.isArray(value)) return value.some(holdsBigInt) ? value.map(withoutBigInts) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (!holdsBigInt(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutBigInts(item)]));
}

function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsBigInt);
}
