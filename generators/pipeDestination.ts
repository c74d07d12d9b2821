import * as fc from 'fast-check';
import { destinationColumns, type DestinationColumn } from './destinationColumns.ts';
import { identifier } from './identifier.ts';

/** The table definition of a destination, referring to its columns. */
export type TableDefinition = {
  engine: { versionColumnId: string; columnIds: string[] };
  sortingKey: string[];
  partitionBy: string;
  primaryKey: string;
};

/** The destination object of a pipe create body. */
export type PipeDestination = {
  database: string;
  table: string;
  columns: DestinationColumn[];
  managedTable: boolean;
  tableDefinition: TableDefinition;
  roles: string[];
};

function tableDefinition(names: readonly string[]): fc.Arbitrary<TableDefinition> {
  const column = fc.constantFrom(...names);
  return fc
    .record(
      {
        engine: fc.record(
          { versionColumnId: column, columnIds: fc.subarray([...names], { minLength: 1 }) },
          { noNullPrototype: true },
        ),
        sortingKey: fc.shuffledSubarray([...names], { minLength: 1 }),
        partitionBy: fc.oneof(
          column,
          column.map((name) => `toYYYYMM(${name})`),
        ),
      },
      { noNullPrototype: true },
    )
    .map((definition) => ({
      ...definition,
      primaryKey: definition.sortingKey[0] ?? definition.engine.versionColumnId,
    }));
}

/**
 * Complete pipe create destinations: database, table, 1..5 uniquely named columns (at least `minColumns`, at least 1),
 * managedTable, a tableDefinition over those columns with every part, and roles.
 */
export function pipeDestination(
  constraints: { minColumns?: number; maxColumns?: number } = {},
): fc.Arbitrary<PipeDestination> {
  const minColumns = Math.max(1, constraints.minColumns ?? 1);
  const maxColumns = Math.max(minColumns, constraints.maxColumns ?? 5);
  return fc
    .record({
      database: identifier(),
      table: identifier(),
      columns: destinationColumns({ minLength: minColumns, maxLength: maxColumns }),
    })
    .chain((base) =>
      fc
        .record(
          {
            managedTable: fc.boolean(),
            tableDefinition: tableDefinition(base.columns.map((column) => column.name)),
            roles: fc.uniqueArray(identifier(), { minLength: 1, maxLength: 3 }),
          },
          { noNullPrototype: true },
        )
        .map((extra): PipeDestination => ({ ...base, ...extra })),
    );
}

/**
 * The columns of `columns` that a table definition names: `engine.versionColumnId`, `engine.columnIds`, `sortingKey`,
 * `primaryKey` and those `partitionBy` uses (each a name or an expression over names, as `toYYYYMM(created_at)`). A
 * pipe update's columns keep them all (RULES.md: a must-accept body is consistent with what the target holds).
 */
export function columnsNamedBy<C extends { name: string }>(definition: unknown, columns: readonly C[]): C[] {
  const parts = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  const at = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  const engine = at(definition, 'engine');
  const words = new Set(
    [
      at(engine, 'versionColumnId'),
      ...parts(at(engine, 'columnIds')),
      ...parts(at(definition, 'sortingKey')),
      at(definition, 'primaryKey'),
      at(definition, 'partitionBy'),
    ].flatMap((text) => (typeof text === 'string' ? [text, ...(text.match(/\b[A-Za-z_]\w*\b(?!\s*\()/g) ?? [])] : [])),
  );
  return columns.filter((column) => words.has(column.name));
}
