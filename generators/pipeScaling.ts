import * as fc from 'fast-check';

/** The pipe scaling object accepted on create. */
export type PipeScaling = {
  replicas?: number;
  concurrency?: number;
  replicaCpuMillicores?: number;
  replicaMemoryGb?: number;
};

const MODEL: { readonly [K in keyof Required<PipeScaling>]: fc.Arbitrary<number> } = Object.freeze({
  replicas: fc.integer({ min: 1, max: 10 }),
  concurrency: fc.integer({ min: 1, max: 16 }),
  replicaCpuMillicores: fc.integer({ min: 1, max: 32 }).map((quarters) => quarters * 250),
  replicaMemoryGb: fc.integer({ min: 1, max: 64 }).map((quarters) => quarters / 4),
});

const KEYS = Object.freeze(Object.keys(MODEL) as (keyof PipeScaling)[]);

/** Pipe scaling objects with a subset of the four keys (between `minKeys` and `maxKeys`), positive values, memory possibly fractional. */
export function pipeScaling(constraints: { minKeys?: number; maxKeys?: number } = {}): fc.Arbitrary<PipeScaling> {
  const { minKeys = 0, maxKeys = KEYS.length } = constraints;
  return fc
    .subarray([...KEYS], { minLength: minKeys, maxLength: maxKeys })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, MODEL[key]])), { noNullPrototype: true }) as fc.Arbitrary<PipeScaling>);
}
