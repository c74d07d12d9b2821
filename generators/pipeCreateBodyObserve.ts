import type * as fc from 'fast-check';
import { observeVariant, type JsonPath } from './observeVariant.ts';
import { SECRET_VALUE_PATTERN } from './secretValue.ts';
import { pipeCreateBody, type PipeCreateBody } from './pipeCreateBody.ts';
import type { PipeKind } from './pipeKind.ts';

/**
 * True for a secret the body carries (made by `secretValue`, under whichever field the spec marks secret): it keeps its
 * value.
 */
const secretAt = (body: unknown, path: JsonPath): boolean =>
  SECRET_VALUE_PATTERN.test(
    String(path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], body)),
  );

/** Parts tied by the documents: the source kind key, the columns and the mappings that must cover them. */
const tied = (path: JsonPath): boolean =>
  (path[0] === 'source' && path.length === 2 && path[1] !== 'validateSamples') ||
  path[0] === 'fieldMappings' ||
  (path[0] === 'destination' && path[1] === 'columns');

/**
 * Observe pipe create bodies for a source of `kind` (any when absent): a complete body with some fields left out,
 * nested ones included (never the source kind, the columns or their mappings), and some strings and numbers given
 * unusual values of their type (never secrets, column names, mappings or the documented offset format).
 */
export function pipeCreateBodyObserve(constraints: { kind?: PipeKind } = {}): fc.Arbitrary<Partial<PipeCreateBody>> {
  return pipeCreateBody(constraints).chain((body) =>
    observeVariant(body, {
      droppable: (path) => !tied(path),
      open: (path) =>
        !secretAt(body, path) &&
        path[0] !== 'fieldMappings' &&
        !(path[0] === 'destination' && path[1] === 'columns' && path[3] === 'name') &&
        !path.includes('offset'),
    }),
  );
}
