import * as fc from 'fast-check';
import { lazy } from './lazy.ts';

const LONG = 'conformance-long-'.padEnd(2_000, 'x');
const SAMPLES = Object.freeze([
  '',
  ' ',
  'Ünïcödé ✓',
  '日本語のテキスト',
  'Ошибка',
  '🚀🔥',
  'Zoe\u0308 cafe\u0301 n\u0303',
  'مرحبا بالعالم',
  'שלום עולם',
  'mixed עברית and ASCII',
  '👩‍👩‍👧 🇯🇵 한국어',
  'tab\tand\nnewline',
  'quote " and \' <tag> & amp',
  '  padded  ',
  LONG,
]);
const SURROGATE_START = 0xd800;
const SURROGATES = 0xe000 - SURROGATE_START;
/**
 * Any Unicode scalar value (every code point but the surrogates), as one string. fast-check's own `binary` unit
 * draws the same, but indexes all 1.1 million of them in a map when a string arbitrary is built (a second at start-up).
 */
const CODE_POINT = fc.integer({ min: 0, max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < SURROGATE_START ? index : index + SURROGATES),
  (unit) => {
    const point = typeof unit === 'string' ? unit.codePointAt(0) : undefined;
    if (
      point === undefined ||
      String.fromCodePoint(point) !== unit ||
      (point >= SURROGATE_START && point < SURROGATE_START + SURROGATES)
    )
      throw new Error('not one Unicode scalar value');
    return point < SURROGATE_START ? point : point - SURROGATES;
  },
);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ODD_TEXT = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SAMPLES) },
  { weight: 1, arbitrary: lazy(() => fc.string({ unit: 'grapheme', maxLength: 40 })) },
  { weight: 1, arbitrary: fc.string({ unit: CODE_POINT, maxLength: 20 }) },
);

/**
 * Strings beyond the obvious shape, for fields the documents type only as "string": empty, blank, non-ASCII (accents,
 * CJK, emoji, combining marks, right-to-left), control characters, markup, 2000 characters long.
 */
export function oddText(): fc.Arbitrary<string> {
  return ODD_TEXT;
}
