import * as fc from 'fast-check';

const LONG = 'conformance-long-'.padEnd(2_000, 'x');
const SAMPLES = Object.freeze(['', ' ', 'Ünïcödé ✓', '日本語のテキスト', 'Ошибка', '🚀🔥', 'tab\tand\nnewline', 'quote " and \' <tag> & amp', '  padded  ', LONG]);
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const ODD_TEXT = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...SAMPLES) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).filter((text) => !/\p{Cs}/u.test(text)) },
);

/** Strings beyond the obvious shape, for fields the documents type only as "string": empty, blank, non-ASCII, control characters, markup, 2000 characters long. */
export function oddText(): fc.Arbitrary<string> {
  return ODD_TEXT;
}
