import * as fc from 'fast-check';

/** One character arbitrary per alphabet: fast-check works out a string arbitrary's slices once per character one. */
const units = new Map<string, fc.Arbitrary<string>>();

/**
 * Strings of `alphabet`'s characters, `minLength` to `maxLength` long (exactly `minLength` when no maximum is given):
 * what `stringMatching(/^[...]{min,max}$/)` draws and shrinks, without parsing a pattern, which cost a run's worker
 * several milliseconds for each such arbitrary.
 */
export function charsOf(alphabet: string, minLength: number, maxLength: number = minLength): fc.Arbitrary<string> {
  let unit = units.get(alphabet);
  if (!unit) {
    unit = fc.constantFrom(...alphabet);
    units.set(alphabet, unit);
  }
  return fc.string({ unit, minLength, maxLength });
}

/** Alphabets for `charsOf`. */
export const DIGITS = '0123456789';
export const HEX_DIGITS = `${DIGITS}abcdef`;
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
