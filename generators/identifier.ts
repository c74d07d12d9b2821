import * as fc from 'fast-check';

const HEAD = 'abcdefghijklmnopqrstuvwxyz';
const TAIL = `${HEAD}0123456789_`;

/** Lower-case SQL-style identifiers (a letter, then letters, digits and underscores), for databases, tables, columns and schemas. */
export function identifier(constraints: { maxLength?: number } = {}): fc.Arbitrary<string> {
  const { maxLength = 16 } = constraints;
  return fc
    .tuple(fc.constantFrom(...HEAD), fc.string({ unit: fc.constantFrom(...TAIL), maxLength: Math.max(0, maxLength - 1) }))
    .map(([head, tail]) => head + tail);
}
