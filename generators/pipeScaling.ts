import * as fc from 'fast-check';
import { partialRecord } from './partialRecord.ts';

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

/**
 * Pipe scaling objects with a subset of the four keys (at least `minKeys`), positive values, memory possibly
 * fractional.
 */
export function pipeScaling(constraints: { minKeys?: number } = {}): fc.Arbitrary<PipeScaling> {
  return partialRecord(MODEL, constraints) as fc.Arbitrary<PipeScaling>;
}
