import * as fc from 'fast-check';

// Built once: the same arbitrary serves every caller.
const ODD_NUMBER = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom<number | bigint>(
      -1,
      0,
      0.5,
      -0.25,
      1.5,
      -1_000_000,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 31 + 1,
      -(2 ** 31) - 1,
      2 ** 32 + 1,
      1e15,
      Number.MAX_SAFE_INTEGER,
      1e-7,
      2n ** 53n + 1n,
      2 ** 53 + 2,
      2n ** 63n + 1n,
      2n ** 64n + 1n,
      -(2n ** 63n) - 1n,
      1e21,
      10n ** 400n,
    ),
  },
  { weight: 1, arbitrary: fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 80n }) },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)) },
);

/**
 * Finite numbers beyond the obvious shape, for fields the documents type only as "number": negative, zero, fractional,
 * tiny, 2^31 ± 1 and huge; an integer past 2^53 is a bigint, sent as its exact digits (10^400: one no double holds).
 */
export function oddNumber(): fc.Arbitrary<number | bigint> {
  return ODD_NUMBER;
}
