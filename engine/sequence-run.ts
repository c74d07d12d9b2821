import fc from 'fast-check';
import { propertySeed } from './seeds.ts';
import { type Drawn, type Ran, runOnce, type SequenceRun } from './sequence-once.ts';
import { type SequenceCause, shrinkSequenceCause } from './sequence-shrink.ts';
import type { ReadBack, SequenceCommand, SequenceProperty, SequenceReal } from './sequence-types.ts';
import type { SuiteContext } from './suite-types.ts';

/**
 * The commands of a draw that run within `requests`, each sending `requestsOf(command)`: a command runs only where the
 * ones before it leave it room (`SequenceReal.room`).
 */
export function commandsWithin<C>(commands: Iterable<C>, requests: number, requestsOf: (command: C) => number): C[] {
  let sent = 0;
  const within: C[] = [];
  for (const command of commands) {
    const size = requestsOf(command);
    if (sent + size > requests) continue;
    sent += size;
    within.push(command);
  }
  return within;
}

/**
 * The commands of a sequence: `fc.commands` of `commands` (each drawn as often as its weight), of which exactly `room`
 * run when every command may. `fc.commands` draws its length evenly between none and its most (twice the room): a draw
 * shorter than the room, or one whose first `room` commands `wanted` refuses, is drawn again, so that a sequence sends
 * no fewer commands than its plan counts. A command past the room does not run, and shrinking (`fc.commands`' own, to
 * any shorter sequence) drops it like any other command that did not run.
 */
export function sequenceCommands<M extends object>(
  room: number,
  commands: readonly fc.WeightedArbitrary<SequenceCommand<M>>[],
  wanted: (first: readonly SequenceCommand<M>[]) => boolean = () => true,
): fc.Arbitrary<Iterable<SequenceCommand<M>>> {
  // Commands run so far, by the model of the run (every run of a sequence, shrink candidates too, has its own).
  const ran = new WeakMap<object, number>();
  const command = fc.oneof(...commands).map((drawn): SequenceCommand<M> => new WithinRoom(drawn, room, ran));
  const draws = fc.commands([command], { maxCommands: 2 * room, size: 'max' });
  return new DrawnIf(draws, (drawn) => drawn.length >= room && wanted(drawn.slice(0, room)));
}

/**
 * Draws of `commands` that `wanted` accepts; they shrink as `commands` does, to any of its shrinks (a filter would hand
 * the run a clone of the commands, and shrinking would not see which of them ran).
 */
class DrawnIf<C> extends fc.Arbitrary<Iterable<C>> {
  constructor(
    readonly commands: fc.Arbitrary<Iterable<C>>,
    readonly wanted: (drawn: C[]) => boolean,
  ) {
    super();
  }

  generate(random: fc.Random, bias: number | undefined): fc.Value<Iterable<C>> {
    for (;;) {
      const drawn = this.commands.generate(random, bias);
      // `value_`: reading `value` would take the one read that is not a clone.
      if (this.wanted([...drawn.value_])) return drawn;
    }
  }

  canShrinkWithoutContext(value: unknown): value is Iterable<C> {
    return this.commands.canShrinkWithoutContext(value);
  }

  shrink(value: Iterable<C>, context: unknown): fc.Stream<fc.Value<Iterable<C>>> {
    return this.commands.shrink(value, context);
  }
}

/** A command that runs only while its sequence has run fewer than `room` commands. */
class WithinRoom<M extends object> implements SequenceCommand<M> {
  constructor(
    readonly command: SequenceCommand<M>,
    readonly room: number,
    readonly ran: WeakMap<object, number>,
  ) {}

  check(model: Readonly<M>): boolean {
    return (this.ran.get(model) ?? 0) < this.room && this.command.check(model);
  }

  run(model: M, real: SequenceReal): Promise<void> {
    this.ran.set(model, (this.ran.get(model) ?? 0) + 1);
    return this.command.run(model, real);
  }

  toString(): string {
    return this.command.toString();
  }
}

/**
 * Runs `count` sequences of the property, `width` at once, each with `fc.asyncModelRun`, drawn from the property's seed
 * at its index. Then the first failing sequence of each rule on each operation that fails again alone is shrunk by
 * fast-check (`fc.check` with that seed and index as `path` replays it; then fewer steps first, then the values the
 * commands let shrink: which pipe a step names and what the sequence reads back, not a step's body, as every candidate
 * is a whole sequence sent to the target), within `DEFAULTS.sequenceShrinkRequestsPerCause` requests per cause and what
 * the run's shrink budget leaves (with `--max-requests`, what the plan does not need); the shortest failing sequence
 * goes on the kept finding of its first failing step.
 */
export async function runSequences<M extends object, S = undefined>(
  context: SuiteContext,
  spec: SequenceProperty<M, S>,
): Promise<void> {
  const run: SequenceRun<M, S> = { context, spec, seed: propertySeed(context.config.seed, spec.property) };
  const drawn: fc.Arbitrary<Drawn<M, S>> = fc.tuple(
    spec.readBack ?? fc.constant<ReadBack>('every'),
    spec.start ?? fc.constant(undefined as S),
    spec.commands,
  );
  /** The failing sequences of each rule on each operation (a verdict's cause), by index. */
  const causes = new Map<string, SequenceCause>();
  await inLanes(spec.count, spec.width, async (index) => {
    const [value] = fc.sample(drawn, { seed: run.seed, path: String(index), numRuns: 1 });
    addFailure(causes, index, await runOnce(run, value!, index));
  });
  // After every sequence ran, one cause at a time, so that neither timing nor another shrink decides what is shown.
  for (const cause of [...causes.values()].sort((a, b) =>
    a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.operationId < b.operationId ? -1 : 1,
  ))
    await shrinkSequenceCause(run, drawn, cause);
}

/** Adds a sequence that ran to the causes it failed: each rule its failure broke, on the operation it broke it on. */
function addFailure(causes: Map<string, SequenceCause>, index: number, ran: Ran): void {
  for (const rule of ran.failure?.violations.keys() ?? []) {
    const operationId = ran.failure!.exchange.operationId;
    const cause = causes.get(`${rule} on ${operationId}`) ?? { rule, operationId, failing: [] };
    cause.failing.push({ index, ran });
    causes.set(`${rule} on ${operationId}`, cause);
  }
}

/** Runs `run(0)` .. `run(count - 1)`, `width` at a time. */
async function inLanes(count: number, width: number, run: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await run(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, count)) }, lane));
}
