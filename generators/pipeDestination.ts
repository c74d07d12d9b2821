import * as fc from 'fast-check';
import { destinationColumns, type DestinationColumn } from './destinationColumns.ts';
import { identifier } from './identifier.ts';

/** The table definition of a destination, referring to its columns. */
export type TableDefinition = {
  engine?: { versionColumnId?: string; columnIds?: string[] };
  sortingKey?: string[];
  partitionBy?: string;
  primaryKey?: string;
};

/** The destination object of a pipe create body. */
export type PipeDestination = {
  database: string;
  table: string;
  columns: DestinationColumn[];
  managedTable?: boolean;
  tableDefinition?: TableDefinition;
  roles?: string[];
};

function tableDefinition(names: readonly string[]): fc.Arbitrary<TableDefinition> {
  const column = fc.constantFrom(...names);
  return fc
    .record(
      {
        engine: fc.record(
          { versionColumnId: column, columnIds: fc.subarray([...names], { minLength: 1 }) },
          { noNullPrototype: true, requiredKeys: [] },
        ),
        sortingKey: fc.shuffledSubarray([...names], { minLength: 1 }),
        partitionBy: fc.oneof(column, column.map((name) => `toYYYYMM(${name})`)),
      },
      { noNullPrototype: true, requiredKeys: [] },
    )
    .map((definition) => (definition.sortingKey ? { ...definition, primaryKey: definition.sortingKey[0] } : definition));
}

/** Pipe create destinations: database, table, 1..5 uniquely named columns, and optionally managedTable, a tableDefinition over those columns, and roles. */
export function pipeDestination(constraints: { minColumns?: number; maxColumns?: number } = {}): fc.Arbitrary<PipeDestination> {
  const { minColumns = 1, maxColumns = 5 } = constraints;
  return fc
    .record({ database: identifier(), table: identifier(), columns: destinationColumns({ minLength: minColumns, maxLength: maxColumns }) })
    .chain((base) => {
      const names = base.columns.map((column) => column.name);
      const optional = {
        managedTable: fc.boolean(),
        ...(names.length > 0 ? { tableDefinition: tableDefinition(names) } : {}),
        roles: fc.uniqueArray(identifier(), { minLength: 1, maxLength: 3 }),
      };
      return fc.record(optional, { noNullPrototype: true, requiredKeys: [] }).map((extra): PipeDestination => ({ ...base, ...extra }));
    });
}
