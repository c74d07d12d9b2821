import * as fc from 'fast-check';
import { destinationColumns } from './destinationColumns.ts';
import { fieldMappings } from './fieldMappings.ts';
import { identifier } from './identifier.ts';
import type { PipeKind } from './pipeKind.ts';
import { pipeSettings } from './pipeSettings.ts';
import { pipeUpdateBody, type PipeUpdateBody } from './pipeUpdateBody.ts';
import { tableMappings } from './tableMappings.ts';

/**
 * An update of a pipe in a sequence, drawn before the pipe is known: a complete body (every update field, with table
 * mappings added and removed for a relational source) or a part of one (some of name, settings, destination columns
 * with mappings that cover them, table mappings added). `remove` and `readd` pick, when the update is sent, among the
 * table mappings the pipe is known to have: removed, and added again although already there.
 */
export type PipeUpdatePatch = {
  complete: boolean;
  body: PipeUpdateBody;
  remove: number[];
  readd?: number;
};

function partialBody(kind: PipeKind): fc.Arbitrary<PipeUpdateBody> {
  const columns = destinationColumns().chain((list) =>
    fieldMappings({ columns: list.map((c) => c.name) }).map((mappings) => ({ list, mappings })),
  );
  const add = kind === 'relational' ? tableMappings({ minLength: 1, maxLength: 2 }) : fc.constant(undefined);
  return fc
    .record(
      {
        name: fc.option(
          identifier({ maxLength: 24 }).map((name) => `ct-${name}`),
          { nil: undefined },
        ),
        settings: fc.option(pipeSettings({ minKeys: 1 }), { nil: undefined }),
        columns: fc.option(columns, { nil: undefined }),
        add: fc.option(add, { nil: undefined }),
      },
      { noNullPrototype: true },
    )
    .map(({ name, settings, columns: chosen, add: added }) => ({
      ...(name === undefined ? {} : { name }),
      ...(settings === undefined ? {} : { settings }),
      ...(chosen === undefined ? {} : { destination: { columns: chosen.list }, fieldMappings: chosen.mappings }),
      ...(added === undefined ? {} : { source: { relational: { tableMappingsToAdd: added } } }),
    }));
}

/**
 * Updates of a pipe of `kind` for a sequence: complete bodies (as `pipeUpdateBody`) or parts of one, with picks among
 * its known table mappings.
 */
export function pipeUpdatePatch(constraints: { kind: PipeKind }): fc.Arbitrary<PipeUpdatePatch> {
  const { kind } = constraints;
  const picks = kind === 'relational' ? fc.uniqueArray(fc.nat(7), { maxLength: 2 }) : fc.constant<number[]>([]);
  const readd = kind === 'relational' ? fc.option(fc.nat(7), { nil: undefined }) : fc.constant(undefined);
  return fc
    .record(
      {
        // Complete bodies three times in four: a target that accepts only complete bodies must still see updates
        // judged.
        complete: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
        remove: picks,
        readd,
      },
      { noNullPrototype: true },
    )
    .chain(({ complete, remove, readd: again }) =>
      (complete ? pipeUpdateBody({ kind }) : partialBody(kind)).map(
        (body): PipeUpdatePatch => ({ complete, body, remove, ...(again === undefined ? {} : { readd: again }) }),
      ),
    );
}
