import { withoutBigInts } from '../core/json-text.ts';
import fc from 'fast-check';
import { DEFAULTS } from '../settings/defaults.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import type { Probe } from '../core/probe-types.ts';
import type { Violation } from '../rule-model/rule.ts';
import type { SequenceExample, SequenceStep } from '../evidence/sequence-example.ts';
import { propertySeed } from './seeds.ts';
import type { JudgedExchange, ProbeRequest, SuiteContext } from './suite-types.ts';

/** What a step is: its words in the report (`update pipe #1 (broker): name`), its kind in the coverage (`update`). */
export interface StepName {
  readonly command: string;
  readonly kind: string;
}

/** One request of a step. */
export interface StepRequest {
  readonly operationId: string;
  readonly request: ProbeRequest;
}

/** A step whose writes are sent at once, then a read once every write was answered. */
export interface AtOnceStep {
  readonly name: StepName;
  readonly writes: readonly StepRequest[];
  readonly read: StepRequest & { readonly name: StepName };
  /**
   * What the write answered last is judged by, given every write's exchange and the read's (merged into its probe's
   * `expect`); undefined when there is nothing to judge.
   */
  readonly judge: (writes: readonly Exchange[], read: Exchange) => Readonly<Record<string, unknown>> | undefined;
}

/** How a sequence's commands send a step. */
export interface SequenceReal {
  /** Sends one step; throws when its answer breaks a rule the sequence judges. */
  step(name: StepName, operationId: string, request: ProbeRequest): Promise<Exchange>;
  /**
   * Sends writes at once, then the read; throws when an answer breaks a rule the sequence judges, and ends the sequence
   * when any of them was not accepted (what the target then holds is unknown).
   */
  atOnce(step: AtOnceStep): Promise<{ readonly writes: readonly Exchange[]; readonly read: Exchange }>;
  /**
   * Whether the sequence may send this many requests more, `atOnce` of them at once (all, unless said): the run's
   * concurrency allows that many, and they keep its commands within `commandRequests`.
   */
  room(requests: number, atOnce?: number): boolean;
}

/**
 * A command of a sequence: fast-check draws it, checks it against the model, and runs it on the model and the target.
 */
export type SequenceCommand<M extends object> = fc.AsyncCommand<M, SequenceReal>;

/**
 * What a sequence reads back at its end: every resource the model knows (as drawn, always), or, once shrinking narrowed
 * it, the one at this index.
 */
export type ReadBack = 'every' | number;

/** A property whose examples are sequences of commands, each run against a fresh model. */
export interface SequenceProperty<M extends object, S = undefined> {
  readonly property: string;
  /** What a sequence's setup sends before its commands (the pipes it creates, say), drawn with them. */
  readonly start?: fc.Arbitrary<S>;
  readonly commands: fc.Arbitrary<Iterable<SequenceCommand<M>>>;
  /**
   * The read-back a sequence draws (`every`), and what shrinking may narrow it to; without one, it reads back every
   * resource.
   */
  readonly readBack?: fc.Arbitrary<ReadBack>;
  /** The model a sequence starts from, given what it drew as `start`; it may send steps (a list read, creates). */
  readonly setup: (real: SequenceReal, start: S) => Promise<M>;
  /**
   * Steps after the commands that read back what the model knows (so that every sequence judges the state it left),
   * given how many steps the sequence sent: it reads back until the sequence has sent its planned number of steps.
   */
  readonly finish: (model: M, real: SequenceReal, sent: number, readBack: ReadBack) => Promise<void>;
  /** The rules whose violation on a step fails the sequence (and is shrunk). */
  readonly rules: readonly string[];
  /** Sequences to run, and how many at once. */
  readonly count: number;
  readonly width: number;
  /** Hears every step's exchange as it comes back (to note what the run changed, say). */
  readonly onStep?: (exchange: Exchange) => void;
  /** Requests a sequence's commands send at most, where writes sent at once may take several (see `room`). */
  readonly commandRequests?: number;
}

/** A step's answer broke rules the sequence judges (each with its first violation): the model run stops there. */
class Disagreement extends Error {
  constructor(
    readonly violations: ReadonlyMap<string, Violation>,
    readonly exchange: JudgedExchange,
  ) {
    super(`${[...violations.keys()].join(', ')} broken by ${exchange.operationId}`);
  }
}

/** A step was refused (by the shrink budget before it was sent, or by the run's request gate): the sequence stops. */
class Refused extends Error {}

/**
 * A step went unanswered or was answered 5xx: whether the target applied it is unknown, so the model cannot say what
 * later steps should see. The sequence ends there; the step's own verdicts (transport.answers, a 5xx) stand.
 */
class Unsettled extends Error {}

/** How a shrink candidate's steps draw on the shrink budget: each asks before it is sent. */
interface Allowance {
  /** Why no further `count` requests may go out, or undefined when they may. */
  refusal(count: number): string | undefined;
  /** Counts one step about to be sent. */
  spend(): void;
}

/** A step as it ran: the exchange it is judged by, and for writes sent at once, every one of them. */
interface RanStep {
  readonly command: string;
  readonly exchange: Exchange;
  readonly atOnce?: readonly Exchange[];
}

interface Ran {
  readonly steps: RanStep[];
  readonly failure?: Disagreement;
  /** Why the sequence stopped before its end: a step the budget or the gate refused. */
  readonly refused?: string;
}

/**
 * A sequence as fast-check draws it: what it reads back at the end, what its setup sends, and its commands. In this
 * order, shrinking tries the narrower read-backs first, so that every shorter sequence it tries after them is shorter
 * by the reads too, then a smaller setup (fewer pipes), then fewer commands.
 */
type Drawn<M extends object, S> = [ReadBack, S, Iterable<SequenceCommand<M>>];

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
  const property = spec.property;
  const seed = propertySeed(context.config.seed, property);
  const drawn: fc.Arbitrary<Drawn<M, S>> = fc.tuple(
    spec.readBack ?? fc.constant<ReadBack>('every'),
    spec.start ?? fc.constant(undefined as S),
    spec.commands,
  );
  const perCause = DEFAULTS.sequenceShrinkRequestsPerCause;

  const once = async ([readBack, start, commands]: Drawn<M, S>, index: number, allowance?: Allowance): Promise<Ran> => {
    const steps: Ran['steps'] = [];
    const more: Partial<Probe> = allowance ? { evidence: false, shrink: { property } } : {};
    let from = 'start';
    let requests = 0;
    const example = { property, seed, index };
    const ask = (count: number): void => {
      const refused = allowance?.refusal(count);
      if (refused) throw new Refused(refused);
      for (let n = 0; n < count; n++) allowance?.spend();
      requests += count;
    };
    const sendStep = (kind: string, { operationId, request }: StepRequest): Promise<JudgedExchange> => {
      const transition = { from, to: kind };
      from = kind;
      return context.send(operationId, { ...request, probe: { ...request.probe, example, transition, ...more } });
    };
    const judged = (exchanges: readonly JudgedExchange[]): void => {
      for (const exchange of exchanges) {
        if (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted')
          throw new Refused(`the run's request gate refused a step (${exchange.failure.code})`);
      }
      for (const exchange of exchanges) {
        const broken = new Map<string, Violation>();
        for (const { rule, violations } of exchange.judgements) {
          if (spec.rules.includes(rule) && violations[0]) broken.set(rule, violations[0]);
        }
        if (broken.size > 0) throw new Disagreement(broken, exchange);
      }
    };
    const real: SequenceReal = {
      async step({ command, kind }, operationId, request) {
        ask(1);
        const exchange = await sendStep(kind, { operationId, request });
        steps.push({ command, exchange });
        spec.onStep?.(exchange);
        judged([exchange]);
        if (exchange.response === undefined || exchange.response.status >= 500) throw new Unsettled();
        return exchange;
      },
      async atOnce({ name, writes, read, judge }) {
        ask(writes.length + 1);
        const sent = await context.sendTogether(
          writes.map(({ operationId, request }) => ({
            operationId,
            request: { ...request, probe: { ...request.probe, example, ...more } },
          })),
        );
        const readExchange = await sendStep(read.name.kind, read);
        // The write answered last carries the history, with the read after them all.
        const last = sent.reduce((at, exchange, i) => (answeredAt(exchange) > answeredAt(sent[at]!) ? i : at), 0);
        const history = judge(sent, readExchange);
        const transition = { from: name.kind, to: name.kind };
        // Every write is a step of the sequence (coverage counts it); the last answered also carries the history.
        const recorded = sent.map((exchange, i) =>
          context.record({
            ...exchange,
            probe: {
              ...exchange.probe,
              transition,
              ...(i === last && history ? { expect: { ...exchange.probe.expect, ...history } } : {}),
            },
          }),
        );
        steps.push({ command: name.command, exchange: recorded[last]!, atOnce: recorded });
        steps.push({ command: read.name.command, exchange: readExchange });
        for (const exchange of [...recorded, readExchange]) spec.onStep?.(exchange);
        judged([recorded[last]!, ...recorded, readExchange]);
        if (![...recorded, readExchange].every(isSuccess)) throw new Unsettled();
        return { writes: recorded, read: readExchange };
      },
      room: (count, atOnce = count) =>
        atOnce <= context.config.concurrency &&
        (spec.commandRequests === undefined || requests + count <= spec.commandRequests),
    };
    try {
      let model: M | undefined;
      await fc.asyncModelRun(async () => {
        model = await spec.setup(real, start);
        return { model, real };
      }, commands);
      // A shrink candidate is no planned request: it reads back without filling up to the plan's length.
      await spec.finish(model!, real, allowance ? Number.POSITIVE_INFINITY : requests, readBack);
      return { steps };
    } catch (error) {
      if (error instanceof Disagreement) return { steps, failure: error };
      if (error instanceof Refused) return { steps, refused: error.message };
      if (error instanceof Unsettled) return { steps };
      throw error;
    }
  };

  /** The failing sequences of each rule on each operation (a verdict's cause), by index. */
  const causes = new Map<string, { rule: string; operationId: string; failing: { index: number; ran: Ran }[] }>();
  const sequence = async (index: number): Promise<void> => {
    const [value] = fc.sample(drawn, { seed, path: String(index), numRuns: 1 });
    const ran = await once(value!, index);
    for (const rule of ran.failure?.violations.keys() ?? []) {
      const operationId = ran.failure!.exchange.operationId;
      const cause = causes.get(`${rule} on ${operationId}`) ?? { rule, operationId, failing: [] };
      cause.failing.push({ index, ran });
      causes.set(`${rule} on ${operationId}`, cause);
    }
  };

  /**
   * Shrinks a cause's failing sequences in the order of their index, until one fails again when fast-check replays it
   * (another sequence run at the same time may have caused it); fast-check then tries shorter ones, each of which fails
   * when a step of the same operation breaks the same rule. Every step of every candidate asks the budget first, so
   * that shrinking stops between two steps when it is spent. The shortest goes on the finding of the first failure.
   */
  const shrink = async (cause: {
    rule: string;
    operationId: string;
    failing: { index: number; ran: Ran }[];
  }): Promise<void> => {
    const { rule, operationId } = cause;
    const failing = [...cause.failing].sort((a, b) => a.index - b.index);
    const first = failing[0]!;
    let spent = 0;
    const allowance: Allowance = {
      refusal: (count) =>
        context.shrinkBudget.refusal(count) ??
        (spent + count > perCause ? `the shrink budget of ${perCause} requests per cause is spent` : undefined),
      spend() {
        spent += 1;
        context.shrinkBudget.spend('sequences');
      },
    };
    let stopped: string | undefined;
    let found: { index: number; smallest: Ran; details: fc.RunDetails<[Drawn<M, S>]> } | undefined;
    for (const { index } of failing) {
      stopped ??= allowance.refusal(1);
      if (stopped || found) break;
      let replayed = false;
      let smallest: Ran | undefined;
      const details = await fc.check(
        fc.asyncProperty(drawn, async (value) => {
          if (stopped) return true;
          const ran = await once(value, index, allowance);
          if (ran.refused) {
            stopped = ran.refused;
            return true;
          }
          const fails = ran.failure?.exchange.operationId === operationId && ran.failure.violations.has(rule);
          // Only a sequence that fails again is shrunk: one that does not fails for more than its own steps.
          if (!replayed && !fails) return true;
          replayed = true;
          if (!fails) return true;
          smallest = ran;
          return false;
        }),
        { seed, path: String(index), numRuns: 1 },
      );
      if (smallest) found = { index, smallest, details };
    }
    if (!found && !stopped)
      stopped =
        `sent again alone, none of the ${failing.length} failing sequence(s) failed: the failure depends on ` +
        'more than their own steps';
    const shown = found?.smallest ?? first.ran;
    const failure = shown.failure!;
    const violation = failure.violations.get(rule)!;
    const counterexample = found?.details.counterexample?.[0];
    const replayPath =
      counterexample === undefined ? undefined : /replayPath="([^"]*)"/.exec(String(counterexample[2]))?.[1];
    const redact = context.evidence(failure.exchange).redact;
    const example: SequenceExample = {
      outcome: found ? 'shrunk' : 'skipped',
      ...(stopped ? { reason: stopped } : {}),
      requests: spent,
      complete: stopped === undefined,
      steps: shown.steps.map(({ command, exchange, atOnce }): SequenceStep => {
        const shown = (one: Exchange) => {
          const evidence = context.evidence(one);
          return {
            request: evidence.request,
            curl: evidence.curl,
            status: one.response?.status ?? one.failure?.code ?? 'no answer',
          };
        };
        if (!atOnce) return { command, ...shown(exchange) };
        const start = Math.min(...atOnce.map((one) => one.interval?.sent ?? Number.POSITIVE_INFINITY));
        const at = (ms: number | undefined): number => (ms === undefined ? 0 : Math.round(ms - start));
        return {
          command,
          ...shown(exchange),
          atOnce: atOnce.map((one) => ({
            ...shown(one),
            sent: at(one.interval?.sent),
            answered: at(one.interval?.answered),
          })),
        };
      }),
      failingStep: shown.steps.findIndex((step) => step.exchange === failure.exchange) + 1,
      path: violation.path,
      expected: String(redact(violation.expected)),
      ...(violation.explanation ? { explanation: violation.explanation.map((line) => String(redact(line))) } : {}),
      ...(violation.actual === undefined ? {} : { actual: withoutBigInts(redact(violation.actual)) }),
      replay: {
        property,
        seed,
        path: found?.details.counterexamplePath ?? String(first.index),
        ...(replayPath ? { replayPath } : {}),
      },
    };
    context.amendFinding(first.ran.failure!.exchange, rule, (finding) => ({ ...finding, sequence: example }));
  };

  await inLanes(spec.count, spec.width, sequence);
  // After every sequence ran, one cause at a time, so that neither timing nor another shrink decides what is shown.
  for (const cause of [...causes.values()].sort((a, b) =>
    a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.operationId < b.operationId ? -1 : 1,
  ))
    await shrink(cause);
}

/** When an exchange's answer ended, for one sent at once; -Infinity for one not sent. */
function answeredAt(exchange: Exchange): number {
  return exchange.interval?.answered ?? Number.NEGATIVE_INFINITY;
}

/** Runs `run(0)` .. `run(count - 1)`, `width` at a time. */
async function inLanes(count: number, width: number, run: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await run(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, count)) }, lane));
}
