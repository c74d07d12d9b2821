import * as fc from 'fast-check';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 28;
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const SECRET_BODY = fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: LENGTH, maxLength: LENGTH });

/** The shape of every default secret value: `sv_` and 28 letters or digits. */
export const SECRET_VALUE_PATTERN = /^sv_[A-Za-z0-9]{28}$/;

/**
 * Unbiased random secret strings (`sv_` and 28 letters or digits by default), long enough never to appear in a response
 * by chance.
 */
export function secretValue(constraints: { prefix?: string } = {}): fc.Arbitrary<string> {
  const { prefix = 'sv_' } = constraints;
  return fc.noBias(SECRET_BODY.map((body) => prefix + body));
}
