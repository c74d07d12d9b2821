import * as fc from 'fast-check';

/** The four pipe source kinds, in document order. */
export const PIPE_KINDS = Object.freeze(['broker', 'objectStorage', 'stream', 'relational'] as const);

/** A pipe source kind: the one key present under `source`. */
export type PipeKind = (typeof PIPE_KINDS)[number];

/** Pipe source kinds, from `kinds` when given. */
export function pipeKind(constraints: { kinds?: readonly PipeKind[] } = {}): fc.Arbitrary<PipeKind> {
  const { kinds = PIPE_KINDS } = constraints;
  return fc.constantFrom(...kinds);
}
