import fc from 'fast-check';
import type { Example } from './suite-types.ts';

/** Values drawn ahead at most: fast-check draws them this many at a time, from the index the chunk starts at. */
const CHUNK = 64;

/**
 * The first `count` examples of a property, drawn a chunk at a time as they are asked for: the same values in the same
 * order as `fc.sample(arbitrary, { seed, numRuns: count })`, without holding them all.
 */
export function* propertyExamples<T>(
  property: string,
  arbitrary: fc.Arbitrary<T>,
  seed: number,
  count: number,
): Generator<Example<T>> {
  for (let start = 0; start < count; start += CHUNK) {
    const values = fc.sample(arbitrary, { seed, path: String(start), numRuns: Math.min(CHUNK, count - start) });
    for (const [offset, value] of values.entries()) yield { value, example: { property, seed, index: start + offset } };
  }
}

/**
 * Runs `probe` on each example, `width` at a time: the next example is drawn only when a probe is done, so that what
 * waits for the request gate is bounded by `width`, not by the number of examples. `onDone` hears each result as it
 * comes. The first probe that throws stops the drawing; its error is thrown once the probes under way are done.
 */
export async function forEachExample<T, R>(
  examples: Iterator<Example<T>>,
  width: number,
  probe: (example: Example<T>) => Promise<R>,
  onDone?: (result: R, example: Example<T>) => void,
): Promise<void> {
  let failed: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    for (let next = examples.next(); !next.done && !failed; next = examples.next()) {
      try {
        const result = await probe(next.value);
        onDone?.(result, next.value);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, lane));
  if (failed) throw failed.error;
}
