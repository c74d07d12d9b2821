import type * as fc from 'fast-check';

/**
 * An invalid generator: the rule of RULES.md its values break, why, the arbitrary, and an independent check that a
 * value breaks it.
 */
export interface InvalidGenerator<T, C = undefined> {
  readonly breaks: string;
  readonly description: string;
  arbitrary(constraints?: C): fc.Arbitrary<T>;
  witness(value: T): boolean;
}
