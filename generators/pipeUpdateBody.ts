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

type ColumnChange = Pick<PipeUpdateBody, 'destination' | 'fieldMappings'>;

/** Non-empty pipe update bodies for a pipe of `kind`: optional name, update-time source fields, partial settings, and new columns with mappings covering them, or (only when the pipe's `columns` are given) mappings alone covering those. */
export function pipeUpdateBody(
  constraints: { kind: PipeKind; columns?: readonly string[]; tableMappings?: readonly TableMapping[] },
): fc.Arbitrary<PipeUpdateBody> {
  const { kind, columns = [] } = constraints;
  const newColumns: fc.Arbitrary<ColumnChange> = destinationColumns({ names: columns }).chain((list) =>
    fieldMappings({ columns: list.map((column) => column.name) }).map((mappings) => ({ destination: { columns: list }, fieldMappings: mappings })));
  const change: fc.Arbitrary<ColumnChange> = columns.length > 0
    ? fc.oneof(newColumns, fieldMappings({ columns }).map((mappings) => ({ fieldMappings: mappings })))
    : newColumns;
  return fc
    .record(
      {
        name: identifier({ maxLength: 24 }).map((name) => `ct-${name}`),
        source: pipeSourceUpdate({ kind, ...(constraints.tableMappings ? { tableMappings: constraints.tableMappings } : {}) }),
        change,
        settings: pipeSettings({ minKeys: 1 }),
      },
      { noNullPrototype: true, requiredKeys: [] },
    )
    .filter((parts) => Object.keys(parts).length > 0)
    .map(({ name, source, change: columnChange, settings }): PipeUpdateBody => ({
      ...(name === undefined ? {} : { name }),
      ...(source === undefined ? {} : { source }),
      ...(columnChange ?? {}),
      ...(settings === undefined ? {} : { settings }),
    }));
}
