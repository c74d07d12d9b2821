import * as fc from 'fast-check';
import { identifier } from './identifier.ts';

/** One relational table mapping, as in `tableMappings` and `tableMappingsToAdd`. */
export type TableMapping = {
  sourceSchemaName: string;
  sourceTable: string;
  targetTable: string;
  excludedColumns: string[];
  useCustomSortingKey: boolean;
  sortingKeys: string[];
};

function tableMapping(): fc.Arbitrary<TableMapping> {
  return fc
    .record(
      {
        sourceSchemaName: fc.oneof(fc.constantFrom('public', 'sales', 'analytics'), identifier()),
        sourceTable: identifier(),
        rename: fc.option(identifier(), { nil: undefined }),
        excludedColumns: fc.uniqueArray(identifier(), { maxLength: 3 }),
        useCustomSortingKey: fc.boolean(),
        sortingKeys: fc.uniqueArray(identifier(), { minLength: 1, maxLength: 3 }),
      },
      { noNullPrototype: true },
    )
    .filter(({ excludedColumns, sortingKeys }) => !sortingKeys.some((key) => excludedColumns.includes(key)))
    .map(({ sourceSchemaName, sourceTable, rename, excludedColumns, useCustomSortingKey, sortingKeys }) => ({
      sourceSchemaName,
      sourceTable,
      targetTable: rename ?? sourceTable,
      excludedColumns,
      useCustomSortingKey,
      sortingKeys,
    }));
}

/**
 * Lists of complete relational table mappings (all six fields, sorting keys never excluded) with unique source tables
 * and unique target tables, none of whose source tables is in `avoid`.
 */
export function tableMappings(
  constraints: { minLength?: number; maxLength?: number; avoid?: readonly string[] } = {},
): fc.Arbitrary<TableMapping[]> {
  const { minLength = 1, maxLength = 3, avoid = [] } = constraints;
  return fc
    .uniqueArray(tableMapping(), { minLength, maxLength, selector: (m) => `${m.sourceSchemaName}.${m.sourceTable}` })
    .filter(
      (mappings) =>
        new Set(mappings.map((m) => m.targetTable)).size === mappings.length &&
        !mappings.some((m) => avoid.includes(`${m.sourceSchemaName}.${m.sourceTable}`)),
    );
}
