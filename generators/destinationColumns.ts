import * as fc from 'fast-check';
import { identifier } from './identifier.ts';

/** One destination column: a name and a column type. */
export type DestinationColumn = {
  name: string;
  type: string;
};

const COLUMN_TYPES = Object.freeze([
  'String',
  'UInt8',
  'UInt32',
  'UInt64',
  'Int32',
  'Int64',
  'Float32',
  'Float64',
  'Bool',
  'Date',
  'DateTime',
  'DateTime64(3)',
  'UUID',
  'Nullable(String)',
  'LowCardinality(String)',
  'Array(String)',
]);

/** Lists of destination columns with unique names, drawn from fresh identifiers and from `names` when given. */
export function destinationColumns(
  constraints: { minLength?: number; maxLength?: number; names?: readonly string[] } = {},
): fc.Arbitrary<DestinationColumn[]> {
  const { minLength = 1, maxLength = 5, names = [] } = constraints;
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), identifier()) : identifier();
  return fc.uniqueArray(fc.record({ name, type: fc.constantFrom(...COLUMN_TYPES) }, { noNullPrototype: true }), {
    minLength,
    maxLength,
    selector: (column) => column.name,
  });
}
