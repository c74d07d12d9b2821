/**
 * The one table of equivalences: whether a value answered (or read later) is the same stored value as one sent (or read
 * before), by its documented type. Every comparison of an answer with what was sent or read before asks
 * `sameStoredValue`; each entry names the real stacks that need it (STYLE.md principle 14; RULES.md).
 */

/** What the documents say a value is, where known: a JSON Schema's `type`, `format` and `enum`. */
export interface DocumentedType {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly enum?: readonly unknown[];
}

/** One equivalence: its name, what it reads as the same, the stacks that need it, and how it decides a pair. */
export interface Equivalence {
  readonly name: string;
  readonly reads: string;
  /** The real stacks whose correct answers need this entry. */
  readonly stacks: readonly string[];
  /** `true` or `false` when this entry decides whether the pair is the same stored value; undefined to pass it on. */
  readonly decide: (sent: unknown, answered: unknown, documented: DocumentedType | undefined) => boolean | undefined;
}

/** A uuid of any version, in any case. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An RFC 3339 date-time: its date and time to the second, its fraction and its offset. */
const DATE_TIME = /^(\d{4}-\d\d-\d\d)[Tt ](\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/;

/** A JSON number's text, as a scalar read from text (Ajv `x == +x`, Jackson `NumberInput`, Pydantic's numeric str). */
const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A surrogate code unit without its pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The texts a boolean is read from: Pydantic's lax table (any case), which holds Ajv's and Jackson's. */
const TRUE_TEXTS: ReadonlySet<string> = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_TEXTS: ReadonlySet<string> = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

const isNumber = (value: unknown): value is number | bigint => typeof value === 'number' || typeof value === 'bigint';
const isScalar = (value: unknown): value is number | bigint | string | boolean =>
  isNumber(value) || typeof value === 'string' || typeof value === 'boolean';
const jsonType = (value: unknown): string => (isNumber(value) ? 'number' : typeof value);
const types = (documented: DocumentedType | undefined): readonly string[] =>
  documented?.type === undefined ? [] : typeof documented.type === 'string' ? [documented.type] : documented.type;

/**
 * Whether a number answered is the number sent, as JSON parsers read both (IEEE 754 binary64, RFC 8259 §6): the same
 * double in any notation; a number sent that no double holds is observed only, so any number answered is taken.
 */
function sameBinary64(sent: number | bigint, answered: number | bigint): boolean {
  const expected = Number(sent);
  return !Number.isFinite(expected) || expected === Number(answered);
}

/** An instant: whole seconds since the epoch (UTC) and the digits of its fraction, trailing zeros cut. */
interface Instant {
  readonly seconds: number;
  readonly fraction: string;
}

/** A date-time as whole seconds since the epoch (UTC) and its fraction's digits, or undefined for other text. */
function instantOf(text: string): Instant | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const seconds = Date.parse(`${match[1]}T${match[2]}${match[4]!.toUpperCase()}`) / 1000;
  return Number.isNaN(seconds) ? undefined : { seconds, fraction: (match[3] ?? '').replace(/0+$/, '') };
}

/** An instant in units of 10^-digits second, as a bigint. */
const scaled = (at: Instant, digits: number): bigint =>
  BigInt(at.seconds) * 10n ** BigInt(digits) + BigInt(at.fraction.padEnd(digits, '0') || '0');

/**
 * Whether `kept` is `exact` kept at a coarser precision: truncated or rounded to the nearest (either way at a tie) at
 * some precision no finer than the digits it writes. Less than a second apart, by construction.
 */
function keptAtPrecision(exact: Instant, kept: Instant): boolean {
  const digits = Math.max(exact.fraction.length, kept.fraction.length);
  const exactUnits = scaled(exact, digits);
  const keptUnits = scaled(kept, digits);
  for (let precision = kept.fraction.length; precision <= digits; precision++) {
    const unit = 10n ** BigInt(digits - precision);
    const rest = ((exactUnits % unit) + unit) % unit;
    const truncated = exactUnits - rest;
    if (keptUnits === truncated || (keptUnits === truncated + unit && rest * 2n >= unit)) return true;
  }
  return false;
}

/**
 * Whether two RFC 3339 date-times are the same stored instant at the precision the target keeps: in any offset, the
 * one a truncation or a rounding of the other at the precision it writes (so less than a second apart).
 */
export function sameStoredInstant(a: string, b: string): boolean | undefined {
  const [x, y] = [instantOf(a), instantOf(b)];
  if (!x || !y) return undefined;
  return keptAtPrecision(x, y) || keptAtPrecision(y, x);
}

/** A scalar read as another JSON type, as the stacks below read it; undefined where no stack reads it so. */
function readingAs(value: number | bigint | string | boolean, type: string): unknown {
  if (type === 'string') {
    if (isNumber(value) || typeof value === 'boolean') return String(value);
    return undefined;
  }
  if (type === 'number' || type === 'integer') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && NUMBER_TEXT.test(value)) return Number(value.trim());
    return undefined;
  }
  if (type === 'boolean') {
    if (isNumber(value)) return Number(value) === 1 ? true : Number(value) === 0 ? false : undefined;
    const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    return text === undefined ? undefined : TRUE_TEXTS.has(text) ? true : FALSE_TEXTS.has(text) ? false : undefined;
  }
  return undefined;
}

/** The table, in the order its entries are asked; the first that decides a pair decides it, else only the same JSON. */
export const EQUIVALENCES: readonly Equivalence[] = Object.freeze([
  {
    name: 'no value',
    reads: 'a value sent or read as null is the same as null or absent (a field that exists only under a condition)',
    stacks: [
      'Jackson as Spring Boot configures it (JsonInclude.Include.ALWAYS writes null for every field with no value)',
      'Pydantic model_dump (None as null)',
      'Go encoding/json (a nil pointer as null; omitempty leaves it out)',
      'Fastify (fast-json-stringify writes a nullable field as null)',
    ],
    decide: (sent, answered) => (sent === null ? answered === null || answered === undefined : undefined),
  },
  {
    name: 'lone surrogate',
    reads: 'a text with an escaped lone surrogate is observed only: any text answered (RFC 8259 §8.2 leaves it open)',
    stacks: ['JavaScript JSON.parse keeps it', 'Go encoding/json and Python json replace it with U+FFFD'],
    decide: (sent, answered) =>
      typeof sent === 'string' && typeof answered === 'string' && LONE_SURROGATE.test(sent) ? true : undefined,
  },
  {
    name: 'binary64 number',
    reads: 'numbers are the same double (IEEE 754 binary64) in any notation: 30000, 30000.0, 3e4; past 2^53 rounded',
    stacks: [
      'JavaScript JSON.parse',
      'Go encoding/json into float64',
      "Python json's float",
      "Jackson's double",
      'RFC 8259 §6, I-JSON (RFC 7493 §2.2)',
    ],
    decide: (sent, answered) => (isNumber(sent) && isNumber(answered) ? sameBinary64(sent, answered) : undefined),
  },
  {
    name: 'stored instant',
    reads:
      'date-times are the same instant at the precision the target keeps: in any offset, one a truncation or ' +
      'rounding of the other (10:00:00.250Z as 10:00:00Z or 10:00:00.250000+00:00); a second apart is another',
    stacks: [
      'Go time.RFC3339 (whole seconds)',
      'MySQL DATETIME (whole seconds unless fsp is given; rounds)',
      'PostgreSQL timestamptz (microseconds)',
      "Python datetime.isoformat (microseconds, +00:00; none when they're zero)",
      'Go time.RFC3339Nano (nanoseconds, trailing zeros cut)',
    ],
    decide: (sent, answered, documented) =>
      documented?.format === 'date-time' && typeof sent === 'string' && typeof answered === 'string'
        ? (sameStoredInstant(sent, answered) ?? sent === answered)
        : undefined,
  },
  {
    name: 'uuid in any case',
    reads: 'uuids (and the ids the documents give as uuids) compare in any case',
    stacks: [
      'RFC 9562 §4 (input is case-insensitive)',
      'SQL Server uniqueidentifier and .NET Guid.ToString("D").ToUpper() (upper case)',
      'Java UUID.toString, Go google/uuid (lower case)',
    ],
    decide: (sent, answered, documented) =>
      typeof sent === 'string' &&
      typeof answered === 'string' &&
      (documented?.format === 'uuid' || (documented?.format === undefined && UUID.test(sent)))
        ? sent.toLowerCase() === answered.toLowerCase()
        : undefined,
  },
  {
    name: 'scalar read as its documented type',
    reads:
      'a scalar sent in another JSON type is the same as its reading in the type answered: 42 as "42", "8" as 8, ' +
      '"true" as true, true as 1; never where the documents give an enum (an enum value stays an enum value)',
    stacks: [
      "Jackson's defaults (MapperFeature.ALLOW_COERCION_OF_SCALARS: a number token read as text, text as a number)",
      'Ajv coerceTypes as Fastify sets it (coerceTypes: "array"): "" + x to string, +x to number, "true"/1 to boolean',
      "Pydantic's lax mode (a numeric str to int or float; 'yes', 'on', '1' and the like to bool; 0 and 1 to bool)",
    ],
    decide: (sent, answered, documented) => {
      if (!isScalar(sent) || !isScalar(answered) || jsonType(sent) === jsonType(answered)) return undefined;
      if (documented?.enum !== undefined) return false;
      const documentedTypes = types(documented);
      const type = jsonType(answered);
      if (
        documentedTypes.length > 0 &&
        !documentedTypes.some((t) => t === type || (t === 'integer' && type === 'number'))
      )
        return false;
      const reading = readingAs(sent, type);
      if (reading === undefined) return false;
      return isNumber(reading) ? sameBinary64(reading, answered as number) : reading === answered;
    },
  },
  {
    name: 'scalar read as a list of it',
    reads: 'a scalar sent for a list is the same as a list of that one value: "admin" as ["admin"]',
    stacks: [
      "Ajv coerceTypes: 'array', Fastify's default (a scalar wrapped in an array where the schema wants one)",
      'Jackson with DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY (a common Spring setting)',
    ],
    decide: (sent, answered, documented) =>
      isScalar(sent) && Array.isArray(answered) && (documented === undefined || types(documented).includes('array'))
        ? answered.length === 1 && sameStoredValue(sent, answered[0])
        : undefined,
  },
  {
    name: 'text exact',
    reads: 'text is the same only when every code unit is: not trimmed, not escaped, not normalized',
    stacks: ['every JSON stack (RFC 8259 §7)'],
    decide: (sent, answered) => (typeof sent === 'string' ? sent === answered : undefined),
  },
] satisfies Equivalence[]);

/**
 * Whether `answered` is the same stored value as `sent` (or read before), by the documented type when it is known: the
 * first entry of the table that decides the pair; otherwise the same JSON scalar.
 */
export function sameStoredValue(sent: unknown, answered: unknown, documented?: DocumentedType): boolean {
  for (const entry of EQUIVALENCES) {
    const decided = entry.decide(sent, answered, documented);
    if (decided !== undefined) return decided;
  }
  return Object.is(sent, answered);
}

/** The entry of the table that decides a pair, or undefined when none does (the same JSON scalar then). */
export function equivalenceOf(sent: unknown, answered: unknown, documented?: DocumentedType): Equivalence | undefined {
  return EQUIVALENCES.find((entry) => entry.decide(sent, answered, documented) !== undefined);
}

/** Rounding RULES.md allows between a total and the sum of its parts: a hundredth of a credit per entry summed. */
export const TOTAL_ROUNDING = 0.01;

/**
 * Whether a total answered is the sum of the parts answered with it, up to rounding: each part may be rounded to a
 * cent before or after summing (a DECIMAL(…, 2) column per entry, a total summed from unrounded doubles), plus a binary
 * floating-point margin far below a cent.
 */
export function sameTotal(parts: readonly number[], total: number): boolean {
  const sum = parts.reduce((a, b) => a + b, 0);
  return Math.abs(total - sum) <= TOTAL_ROUNDING * Math.max(1, parts.length) + 1e-9 * Math.max(1, Math.abs(sum));
}

/** Whether two ids name the same resource: uuids (and 24-hex ids) in any case. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}
