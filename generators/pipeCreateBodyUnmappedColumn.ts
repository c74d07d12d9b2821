import * as fc from 'fast-check';
import { pipeCreateBody, type PipeCreateBody } from './pipeCreateBody.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';
import type { PipeKind } from './pipeKind.ts';

/** Pipe create bodies, schema-valid, whose field mappings leave exactly one destination column unmapped. */
export const pipeCreateBodyUnmappedColumn: InvalidGenerator<PipeCreateBody, { kind?: PipeKind }> = Object.freeze({
  breaks: 'pipes.field-mappings-cover-columns',
  description: 'a valid pipe create body except that one destination column has no field mapping',
  arbitrary: (constraints: { kind?: PipeKind } = {}) =>
    pipeCreateBody(constraints).chain((body) =>
      fc.constantFrom(...body.destination.columns.map((column) => column.name)).map(
        (dropped): PipeCreateBody => ({
          ...body,
          fieldMappings: body.fieldMappings.filter((mapping) => mapping.destinationField !== dropped),
        }),
      ),
    ),
  witness: (body: PipeCreateBody) => {
    const mapped = new Set((body.fieldMappings ?? []).map((mapping) => mapping.destinationField));
    return (body.destination?.columns ?? []).some((column) => !mapped.has(column.name));
  },
});
