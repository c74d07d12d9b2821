import type * as fc from 'fast-check';
import { observeVariant, type JsonPath } from './observeVariant.ts';
import { SECRET_VALUE_PATTERN } from './secretValue.ts';
import type { PipeKind } from './pipeKind.ts';
import { pipeUpdateBody, type PipeUpdateBody } from './pipeUpdateBody.ts';
import type { TableMapping } from './tableMappings.ts';
import type { DestinationColumn } from './destinationColumns.ts';

/**
 * True for a secret the body carries (made by `secretValue`, under whichever field the spec marks secret): it keeps its
 * value.
 */
const secretAt = (body: unknown, path: JsonPath): boolean =>
  SECRET_VALUE_PATTERN.test(
    String(path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], body)),
  );

const tied = (path: JsonPath): boolean =>
  (path[0] === 'source' && path.length === 2 && path[1] !== 'validateSamples') ||
  path[0] === 'fieldMappings' ||
  (path[0] === 'destination' && path.length > 1);

/**
 * Observe pipe update bodies for a pipe of `kind`: a complete update with some fields left out (the destination columns
 * and their mappings only together, never the source kind) and some strings and numbers given unusual values of their
 * type (never secrets, column names or mappings); never empty.
 */
export function pipeUpdateBodyObserve(constraints: {
  kind: PipeKind;
  columns?: readonly (string | DestinationColumn)[];
  keep?: readonly string[];
  tableMappings?: readonly Pick<TableMapping, 'sourceSchemaName' | 'sourceTable' | 'targetTable'>[];
}): fc.Arbitrary<PipeUpdateBody> {
  return pipeUpdateBody(constraints).chain((body) =>
    observeVariant(
      body,
      {
        droppable: (path) => !tied(path),
        open: (path) =>
          !secretAt(body, path) && path[0] !== 'fieldMappings' && !(path[0] === 'destination' && path[3] === 'name'),
      },
      { minDrop: 1 },
    )
      .map((variant): PipeUpdateBody => {
        if ('destination' in variant) return variant;
        const { fieldMappings: _tied, ...rest } = variant;
        return rest;
      })
      .filter((variant) => Object.keys(variant).length > 0),
  );
}
