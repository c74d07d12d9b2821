import * as fc from 'fast-check';
import { identifier } from './identifier.ts';

/** One field mapping: where a destination column's value comes from. */
export type FieldMapping = {
  sourceField: string;
  destinationField: string;
};

function sourceField(column: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(column),
    identifier(),
    fc.tuple(identifier(), identifier()).map(([parent, child]) => `${parent}.${child}`),
  );
}

/** Field mappings with exactly one mapping per given column, in shuffled order, each from an arbitrary source field. */
export function fieldMappings(constraints: { columns: readonly string[] }): fc.Arbitrary<FieldMapping[]> {
  const { columns } = constraints;
  const indices = columns.map((_, index) => index);
  return fc
    .tuple(
      fc.tuple(...columns.map(sourceField)),
      fc.shuffledSubarray(indices, { minLength: indices.length, maxLength: indices.length }),
    )
    .map(([sources, order]) =>
      order.map((index) => ({ sourceField: sources[index] ?? '', destinationField: columns[index] ?? '' })),
    );
}
