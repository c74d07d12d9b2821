import * as fc from 'fast-check';

// Built once: the same arbitrary serves every caller.
const ODD_NUMBER = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(-1, 0, 0.5, -0.25, 1.5, -1_000_000, 1e15, Number.MAX_SAFE_INTEGER, 1e-7, 2 ** 53 + 2),
  },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)) },
);

/**
 * Finite numbers beyond the obvious shape, for fields the documents type only as "number": negative, zero, fractional,
 * tiny and huge.
 */
export function oddNumber(): fc.Arbitrary<number> {
  return ODD_NUMBER;
}
