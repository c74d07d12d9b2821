import type * as fc from 'fast-check';
import { observeVariant, type JsonPath } from './observeVariant.ts';
import type { PipeKind } from './pipeKind.ts';
import { pipeUpdateBody, type PipeUpdateBody } from './pipeUpdateBody.ts';
import type { TableMapping } from './tableMappings.ts';

const SECRET_FIELDS = new Set<string | number>(['credentials', 'accessKey']);

const tied = (path: JsonPath): boolean => (path[0] === 'source' && path.length === 2 && path[1] !== 'validateSamples') || path[0] === 'fieldMappings' || (path[0] === 'destination' && path.length > 1);

/** Observe pipe update bodies for a pipe of `kind`: a complete update with some fields left out (the destination columns and their mappings only together, never the source kind) and some strings and numbers given unusual values of their type (never secrets, column names or mappings); never empty. */
export function pipeUpdateBodyObserve(constraints: {
  kind: PipeKind;
  columns?: readonly string[];
  tableMappings?: readonly Pick<TableMapping, 'sourceSchemaName' | 'sourceTable' | 'targetTable'>[];
}): fc.Arbitrary<PipeUpdateBody> {
  return pipeUpdateBody(constraints).chain((body) =>
    observeVariant(
      body,
      {
        droppable: (path) => !tied(path),
        open: (path) => !path.some((key) => SECRET_FIELDS.has(key)) && path[0] !== 'fieldMappings' && !(path[0] === 'destination' && path[3] === 'name'),
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
