import type * as fc from 'fast-check';
import { observeVariant, type JsonPath } from './observeVariant.ts';
import { pipeCreateBody, type PipeCreateBody } from './pipeCreateBody.ts';
import type { PipeKind } from './pipeKind.ts';

const SECRET_FIELDS = new Set<string | number>(['credentials', 'accessKey']);

/** Parts tied by the documents: the source kind key, the columns and the mappings that must cover them. */
const tied = (path: JsonPath): boolean =>
  (path[0] === 'source' && path.length === 2 && path[1] !== 'validateSamples') || path[0] === 'fieldMappings' || (path[0] === 'destination' && path[1] === 'columns');

/** Observe pipe create bodies for a source of `kind` (any when absent): a complete body with some fields left out, nested ones included (never the source kind, the columns or their mappings), and some strings and numbers given unusual values of their type (never secrets, column names, mappings or the documented offset format). */
export function pipeCreateBodyObserve(constraints: { kind?: PipeKind } = {}): fc.Arbitrary<Partial<PipeCreateBody>> {
  return pipeCreateBody(constraints).chain((body) =>
    observeVariant(body, {
      droppable: (path) => !tied(path),
      open: (path) =>
        !path.some((key) => SECRET_FIELDS.has(key)) && path[0] !== 'fieldMappings' && !(path[0] === 'destination' && path[1] === 'columns' && path[3] === 'name') && !path.includes('offset'),
    }),
  );
}
