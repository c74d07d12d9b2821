import fc from 'fast-check';

/** Records with a subset of a model's keys (at least `minKeys` of them), each key's value from its arbitrary. */
export function partialRecord<T extends object>(
  model: { [K in keyof T]: fc.Arbitrary<T[K]> },
  constraints: { minKeys?: number } = {},
): fc.Arbitrary<Partial<T>> {
  const keys = Object.keys(model) as (keyof T)[];
  return fc.subarray(keys, { minLength: constraints.minKeys ?? 0 }).chain(
    (chosen) =>
      fc.record(Object.fromEntries(chosen.map((key) => [key, model[key]])), {
        noNullPrototype: true,
      }) as fc.Arbitrary<Partial<T>>,
  );
}
