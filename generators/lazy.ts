import * as fc from 'fast-check';

/**
 * An arbitrary built on first use: the same values, bias and shrinking as the one `build` returns. Building some
 * arbitraries costs milliseconds (a `stringMatching` parses its pattern, a grapheme string indexes its units), and
 * the generators' modules are loaded by runs and commands that draw from few of them, or none (`--dry-run` plans only).
 */
export function lazy<T>(build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  return new LazyArbitrary(build);
}

class LazyArbitrary<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary().generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary().canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary().shrink(value, context);
  }

  private arbitrary(): fc.Arbitrary<T> {
    this.built ??= this.build();
    return this.built;
  }
}
