import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lazy } from '../generators/lazy.ts';

describe('lazy arbitraries', () => {
  it('are built on first use, once', () => {
    let builds = 0;
    const arbitrary = lazy(() => {
      builds += 1;
      return fc.stringMatching(/^[a-z]{2,6}$/);
    });
    expect(builds).toBe(0);
    fc.sample(arbitrary, { seed: 1, numRuns: 5 });
    fc.sample(arbitrary, { seed: 2, numRuns: 5 });
    expect(builds).toBe(1);
  });

  it('draw the same values as the arbitrary they build, mapped and filtered too', () => {
    const built = (): fc.Arbitrary<string> => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
    for (const seed of [1, 7, 42]) {
      expect(fc.sample(lazy(built), { seed, numRuns: 50 })).toEqual(fc.sample(built(), { seed, numRuns: 50 }));
      const trimmed = (arbitrary: fc.Arbitrary<string>) =>
        arbitrary.filter((text) => text.trim() !== '').map((text) => text.length);
      expect(fc.sample(trimmed(lazy(built)), { seed, numRuns: 50 })).toEqual(
        fc.sample(trimmed(built()), { seed, numRuns: 50 }),
      );
    }
  });

  it('shrink a failure to the same counterexample as the arbitrary they build', () => {
    const built = (): fc.Arbitrary<string> => fc.stringMatching(/^[a-z]{1,20}$/);
    const counterexample = (arbitrary: fc.Arbitrary<string>) =>
      fc.check(
        fc.property(arbitrary, (text) => !text.includes('q')),
        { seed: 3, numRuns: 500 },
      ).counterexample;
    const shrunk = counterexample(lazy(built));
    expect(shrunk).not.toBeNull();
    expect(shrunk).toEqual(counterexample(built()));
  });
});
