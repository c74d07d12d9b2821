import * as fc from 'fast-check';
import { brokerSourceCreate } from './brokerSourceCreate.ts';
import { fieldMappings, type FieldMapping } from './fieldMappings.ts';
import { identifier } from './identifier.ts';
import { objectStorageSourceCreate } from './objectStorageSourceCreate.ts';
import { pipeDestination, type PipeDestination } from './pipeDestination.ts';
import { PIPE_KINDS, type PipeKind } from './pipeKind.ts';
import { pipeScaling, type PipeScaling } from './pipeScaling.ts';
import { pipeSettings, type PipeSettings } from './pipeSettings.ts';
import { relationalSourceCreate } from './relationalSourceCreate.ts';
import { streamSourceCreate } from './streamSourceCreate.ts';

/** A pipe create body. */
export type PipeCreateBody = {
  name: string;
  source: Record<string, unknown>;
  destination: PipeDestination;
  fieldMappings: FieldMapping[];
  scaling: PipeScaling;
  settings: PipeSettings;
};

const SOURCES: Readonly<Record<PipeKind, () => fc.Arbitrary<Record<string, unknown>>>> = Object.freeze({
  broker: () => brokerSourceCreate(),
  objectStorage: () => objectStorageSourceCreate(),
  stream: () => streamSourceCreate(),
  relational: () => relationalSourceCreate(),
});

/**
 * Complete pipe create bodies: every documented field of a source of `kind` (any kind when absent) with
 * `validateSamples`, a complete destination, field mappings covering every destination column, all four scaling keys
 * and all twelve settings.
 */
export function pipeCreateBody(constraints: { kind?: PipeKind } = {}): fc.Arbitrary<PipeCreateBody> {
  const source = constraints.kind
    ? SOURCES[constraints.kind]()
    : fc.oneof(...PIPE_KINDS.map((kind) => SOURCES[kind]()));
  return fc
    .record(
      {
        name: identifier({ maxLength: 24 }).map((name) => `ct-${name}`),
        source,
        destination: pipeDestination(),
        scaling: pipeScaling({ minKeys: 4 }),
        settings: pipeSettings({ minKeys: 12 }),
      },
      { noNullPrototype: true },
    )
    .chain(({ name, source: chosen, destination, scaling, settings }) =>
      fieldMappings({ columns: destination.columns.map((column) => column.name) }).map(
        (mappings): PipeCreateBody => ({
          name,
          source: chosen,
          destination,
          fieldMappings: mappings,
          scaling,
          settings,
        }),
      ),
    );
}
