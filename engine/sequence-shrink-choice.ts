import fc from 'fast-check';
import type { SequenceCommand } from './sequence-types.ts';

/**
 * A choice every sequence makes one way when drawn (`drawn`, always: the plan counts on it), which shrinking may make
 * another way (each of `smaller`, in order): fast-check replays it from the seed and path like any other value.
 */
export function shrinkChoice<T>(drawn: T, smaller: readonly T[]): fc.Arbitrary<T> {
  return new ShrinkChoice(drawn, smaller);
}

class ShrinkChoice<T> extends fc.Arbitrary<T> {
  constructor(
    readonly drawn: T,
    readonly smaller: readonly T[],
  ) {
    super();
  }

  generate(): fc.Value<T> {
    return new fc.Value(this.drawn, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return value === this.drawn || this.smaller.includes(value as T);
  }

  shrink(value: T): fc.Stream<fc.Value<T>> {
    if (value !== this.drawn) return fc.Stream.nil();
    return fc.Stream.of(...this.smaller.map((choice) => new fc.Value(choice, undefined)));
  }
}

/**
 * A command that shrinking may leave out wherever it stands. `fc.commands` never drops the last command that ran, as
 * it takes that one for the failing step; a sequence's failure may come later, in its read-back.
 */
export function leftOutWhenShrunk<M extends object>(
  command: fc.Arbitrary<SequenceCommand<M>>,
): fc.Arbitrary<SequenceCommand<M>> {
  return fc
    .tuple(shrinkChoice(true, [false]), command)
    .map(([kept, drawn]): SequenceCommand<M> => (kept ? drawn : new LeftOut(drawn)));
}

/** A command shrinking left out: it never runs, so `fc.commands` drops it from the sequence. */
class LeftOut<M extends object> implements SequenceCommand<M> {
  constructor(readonly command: SequenceCommand<M>) {}

  check(): boolean {
    return false;
  }

  async run(): Promise<void> {
    // Never called: `check` keeps it from running.
  }

  toString(): string {
    return `leftOut(${String(this.command)})`;
  }
}
