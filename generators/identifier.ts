import * as fc from 'fast-check';

const HEAD = 'abcdefghijklmnopqrstuvwxyz';
const TAIL = `${HEAD}0123456789_`;

// Built once: fast-check works out the interesting slices of a string arbitrary per character arbitrary, which costs
// milliseconds.
const HEAD_CHAR = fc.constantFrom(...HEAD);
const TAIL_CHAR = fc.constantFrom(...TAIL);

/**
 * Lower-case SQL-style identifiers (a letter, then letters, digits and underscores), for databases, tables, columns and
 * schemas.
 */
export function identifier(constraints: { maxLength?: number } = {}): fc.Arbitrary<string> {
  const { maxLength = 16 } = constraints;
  return fc
    .tuple(HEAD_CHAR, fc.string({ unit: TAIL_CHAR, maxLength: Math.max(0, maxLength - 1) }))
    .map(([head, tail]) => head + tail);
}
