import * as fc from 'fast-check';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 28;
/**
 * What goes between the value's runs of letters and digits: characters that percent-encoding, form encoding and JSON's
 * `\/` change, so that every encoded form of a secret differs from the value itself.
 */
const SEPARATORS = ['@', ':', '/', '+', ' '];
/** Where the separators go: after these many characters of the body. */
const CUTS = [5, 10, 15, 20, 24];
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const SECRET_BODY = fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: LENGTH, maxLength: LENGTH });

/** The shape of every default secret value: `sv_` and 28 letters or digits with `@`, `:`, `/`, `+` and a space. */
export const SECRET_VALUE_PATTERN =
  /^sv_[A-Za-z0-9]{5}@[A-Za-z0-9]{5}:[A-Za-z0-9]{5}\/[A-Za-z0-9]{5}\+[A-Za-z0-9]{4} [A-Za-z0-9]{4}$/;

/** A body of letters and digits with the separators put in. */
function withSeparators(body: string): string {
  let out = '';
  let from = 0;
  CUTS.forEach((cut, i) => {
    out += body.slice(from, cut) + SEPARATORS[i];
    from = cut;
  });
  return out + body.slice(from);
}

/**
 * Unbiased random secret strings (`sv_` and 28 letters or digits, with `@`, `:`, `/`, `+` and a space between them,
 * by default), long enough never to appear in a response by chance, and changed by every encoding a leak may take.
 */
export function secretValue(constraints: { prefix?: string } = {}): fc.Arbitrary<string> {
  const { prefix = 'sv_' } = constraints;
  return fc.noBias(SECRET_BODY.map((body) => prefix + withSeparators(body)));
}
