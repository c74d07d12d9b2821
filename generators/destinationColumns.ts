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

/**
 * Lists of destination columns with unique names, drawn from fresh identifiers and from `names` (a type drawn for each)
 * when given; `held` columns (a pipe's, as it holds them) may be reused, each whole, so that a name never changes type;
 * `keep` columns are in every list, first, as given. No fresh name is one of those of `held` or `keep`.
 */
export function destinationColumns(
  constraints: {
    minLength?: number;
    maxLength?: number;
    names?: readonly string[];
    held?: readonly DestinationColumn[];
    keep?: readonly DestinationColumn[];
  } = {},
): fc.Arbitrary<DestinationColumn[]> {
  const { minLength = 1, maxLength = 5, names = [], held = [], keep = [] } = constraints;
  if (held.length === 0 && keep.length === 0) {
    const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), identifier()) : identifier();
    return fc.uniqueArray(fc.record({ name, type: fc.constantFrom(...COLUMN_TYPES) }, { noNullPrototype: true }), {
      minLength,
      maxLength,
      selector: (column) => column.name,
    });
  }
  const kept = new Set(keep.map((column) => column.name));
  const reserved = new Set([...kept, ...held.map((column) => column.name)]);
  const type = fc.constantFrom(...COLUMN_TYPES);
  const fresh = (reserved.size > 0 ? identifier().filter((name) => !reserved.has(name)) : identifier()).map((name) => ({
    name,
    type: '',
  }));
  const reused = [
    ...(names.length > 0 ? [fc.constantFrom(...names).map((name) => ({ name, type: '' }))] : []),
    ...(held.some((column) => !kept.has(column.name))
      ? [fc.constantFrom(...held.filter((column) => !kept.has(column.name)))]
      : []),
  ];
  const column = (reused.length > 0 ? fc.oneof(fresh, ...reused) : fresh).chain((drawn) =>
    drawn.type === '' ? type.map((t): DestinationColumn => ({ name: drawn.name, type: t })) : fc.constant(drawn),
  );
  return fc
    .uniqueArray(column, {
      minLength: Math.max(0, minLength - keep.length),
      maxLength: Math.max(0, maxLength - keep.length),
      selector: (drawn) => drawn.name,
    })
    .map((list) => [...keep.map((column) => ({ ...column })), ...list.filter((drawn) => !kept.has(drawn.name))]);
}
