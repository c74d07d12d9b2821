import * as fc from 'fast-check';
import { destinationColumns, type DestinationColumn } from './destinationColumns.ts';
import { fieldMappings, type FieldMapping } from './fieldMappings.ts';
import { identifier } from './identifier.ts';
import type { PipeKind } from './pipeKind.ts';
import { pipeSettings, type PipeSettings } from './pipeSettings.ts';
import { pipeSourceUpdate, type PipeSourceUpdate } from './pipeSourceUpdate.ts';
import type { TableMapping } from './tableMappings.ts';

/** A pipe update (PATCH) body. */
export type PipeUpdateBody = {
  name?: string;
  source?: PipeSourceUpdate;
  destination?: { columns: DestinationColumn[] };
  fieldMappings?: FieldMapping[];
  settings?: PipeSettings;
};

/**
 * Complete pipe update bodies for a pipe of `kind`: a name, every update-time source field of the kind with
 * `validateSamples`, destination columns with field mappings covering exactly them, and all twelve settings;
 * relational removals come from the pipe's `tableMappings` when given. The columns are drawn from the pipe's `columns`
 * when given (a name with a drawn type; a column object whole, as the pipe holds it) and fresh ones, and hold every
 * column `keep` names (those the pipe's `tableDefinition` names, as the pipe holds them) in every body.
 */
export function pipeUpdateBody(constraints: {
  kind: PipeKind;
  columns?: readonly (string | DestinationColumn)[];
  keep?: readonly string[];
  tableMappings?: readonly Pick<TableMapping, 'sourceSchemaName' | 'sourceTable' | 'targetTable'>[];
}): fc.Arbitrary<PipeUpdateBody> {
  const { kind, columns = [], keep = [] } = constraints;
  const held = columns.filter((column): column is DestinationColumn => typeof column !== 'string');
  const names = columns.filter((column): column is string => typeof column === 'string');
  const kept = held.filter((column) => keep.includes(column.name));
  return fc
    .record(
      {
        name: identifier({ maxLength: 24 }).map((name) => `ct-${name}`),
        source: pipeSourceUpdate({
          kind,
          ...(constraints.tableMappings ? { tableMappings: constraints.tableMappings } : {}),
        }),
        columns: destinationColumns({ names, held: held.filter((column) => !kept.includes(column)), keep: kept }),
        settings: pipeSettings({ minKeys: 12 }),
      },
      { noNullPrototype: true },
    )
    .chain(({ name, source, columns: list, settings }) =>
      fieldMappings({ columns: list.map((column) => column.name) }).map(
        (mappings): PipeUpdateBody => ({
          name,
          source,
          destination: { columns: list },
          fieldMappings: mappings,
          settings,
        }),
      ),
    );
}
