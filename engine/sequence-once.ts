import fc from 'fast-check';
import type { Probe } from '../core/probe-types.ts';
import type { Violation } from '../rule-model/rule.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import type {
  AtOnceStep,
  ReadBack,
  SequenceCommand,
  SequenceProperty,
  SequenceReal,
  StepName,
  StepRequest,
} from './sequence-types.ts';
import type { JudgedExchange, ProbeRequest, SuiteContext } from './suite-types.ts';

/** What every run of a property's sequences shares: the suite's context, the property and its seed. */
export interface SequenceRun<M extends object, S> {
  readonly context: SuiteContext;
  readonly spec: SequenceProperty<M, S>;
  readonly seed: number;
}

/**
 * A sequence as fast-check draws it: what it reads back at the end, what its setup sends, and its commands. In this
 * order, shrinking tries the narrower read-backs first, so that every shorter sequence it tries after them is shorter
 * by the reads too, then a smaller setup (fewer pipes), then fewer commands.
 */
export type Drawn<M extends object, S> = [ReadBack, S, Iterable<SequenceCommand<M>>];

/** How a shrink candidate's steps draw on the shrink budget: each asks before it is sent. */
export interface Allowance {
  /** Why no further `count` requests may go out, or undefined when they may. */
  refusal(count: number): string | undefined;
  /** Counts one step about to be sent. */
  spend(): void;
}

/** A step as it ran: the exchange it is judged by, and for writes sent at once, every one of them. */
export interface RanStep {
  readonly command: string;
  readonly exchange: Exchange;
  readonly atOnce?: readonly Exchange[];
}

/** How one sequence ran: its steps, the disagreement that failed it, or why it stopped early. */
export interface Ran {
  readonly steps: RanStep[];
  readonly failure?: Disagreement;
  /** Why the sequence stopped before its end: a step the budget or the gate refused. */
  readonly refused?: string;
}

/** A step's answer broke rules the sequence judges (each with its first violation): the model run stops there. */
export class Disagreement extends Error {
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

/**
 * Runs one sequence, drawn at `index`, with `fc.asyncModelRun`, then its read-back; a shrink candidate (given an
 * `allowance`) asks it before each step and records no evidence.
 */
export async function runOnce<M extends object, S>(
  run: SequenceRun<M, S>,
  [readBack, start, commands]: Drawn<M, S>,
  index: number,
  allowance?: Allowance,
): Promise<Ran> {
  const real = new StepsSent(run, index, allowance);
  try {
    let model: M | undefined;
    await fc.asyncModelRun(async () => {
      model = await run.spec.setup(real, start);
      return { model, real };
    }, commands);
    // A shrink candidate is no planned request: it reads back without filling up to the plan's length.
    await run.spec.finish(model!, real, allowance ? Number.POSITIVE_INFINITY : real.requests, readBack);
    return { steps: real.steps };
  } catch (error) {
    if (error instanceof Disagreement) return { steps: real.steps, failure: error };
    if (error instanceof Refused) return { steps: real.steps, refused: error.message };
    if (error instanceof Unsettled) return { steps: real.steps };
    throw error;
  }
}

/** The `SequenceReal` of one run of a sequence: it sends its steps, keeps them, and judges their answers. */
class StepsSent<M extends object, S> implements SequenceReal {
  readonly steps: RanStep[] = [];
  /** Requests sent so far. */
  requests = 0;
  /** The kind of the step sent last, where the next step's transition starts. */
  private from = 'start';
  private readonly example: { property: string; seed: number; index: number };
  /** What a shrink candidate's probes carry besides (no evidence, the property shrunk). */
  private readonly more: Partial<Probe>;

  constructor(
    private readonly run: SequenceRun<M, S>,
    index: number,
    private readonly allowance: Allowance | undefined,
  ) {
    const { property } = run.spec;
    this.example = { property, seed: run.seed, index };
    this.more = allowance ? { evidence: false, shrink: { property } } : {};
  }

  async step({ command, kind }: StepName, operationId: string, request: ProbeRequest): Promise<Exchange> {
    this.ask(1);
    const exchange = await this.send(kind, { operationId, request });
    this.steps.push({ command, exchange });
    this.run.spec.onStep?.(exchange);
    this.judged([exchange]);
    if (exchange.response === undefined || exchange.response.status >= 500) throw new Unsettled();
    return exchange;
  }

  async atOnce({ name, writes, read, judge }: AtOnceStep): ReturnType<SequenceReal['atOnce']> {
    const { context, spec } = this.run;
    this.ask(writes.length + 1);
    const sent = await context.sendTogether(
      writes.map(({ operationId, request }) => ({
        operationId,
        request: { ...request, probe: { ...request.probe, example: this.example, ...this.more } },
      })),
    );
    const readExchange = await this.send(read.name.kind, read);
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
    this.steps.push({ command: name.command, exchange: recorded[last]!, atOnce: recorded });
    this.steps.push({ command: read.name.command, exchange: readExchange });
    for (const exchange of [...recorded, readExchange]) spec.onStep?.(exchange);
    this.judged([recorded[last]!, ...recorded, readExchange]);
    if (![...recorded, readExchange].every(isSuccess)) throw new Unsettled();
    return { writes: recorded, read: readExchange };
  }

  /** An arrow, not a method: models keep `room` apart from the `SequenceReal` it belongs to. */
  readonly room = (count: number, atOnce = count): boolean =>
    atOnce <= this.run.context.config.concurrency &&
    (this.run.spec.commandRequests === undefined || this.requests + count <= this.run.spec.commandRequests);

  /** Asks the allowance for `count` requests and counts them; throws `Refused` when it says no. */
  private ask(count: number): void {
    const refused = this.allowance?.refusal(count);
    if (refused) throw new Refused(refused);
    for (let n = 0; n < count; n++) this.allowance?.spend();
    this.requests += count;
  }

  /** Sends one step of `kind`, its probe naming the sequence's example and the transition to it. */
  private send(kind: string, { operationId, request }: StepRequest): Promise<JudgedExchange> {
    const transition = { from: this.from, to: kind };
    this.from = kind;
    const probe = { ...request.probe, example: this.example, transition, ...this.more };
    return this.run.context.send(operationId, { ...request, probe });
  }

  /** Throws `Refused` when the gate refused one of the exchanges, else `Disagreement` when one broke a judged rule. */
  private judged(exchanges: readonly JudgedExchange[]): void {
    for (const exchange of exchanges) {
      if (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted')
        throw new Refused(`the run's request gate refused a step (${exchange.failure.code})`);
    }
    for (const exchange of exchanges) {
      const broken = new Map<string, Violation>();
      for (const { rule, violations } of exchange.judgements) {
        if (this.run.spec.rules.includes(rule) && violations[0]) broken.set(rule, violations[0]);
      }
      if (broken.size > 0) throw new Disagreement(broken, exchange);
    }
  }
}

/** When an exchange's answer ended, for one sent at once; -Infinity for one not sent. */
function answeredAt(exchange: Exchange): number {
  return exchange.interval?.answered ?? Number.NEGATIVE_INFINITY;
}
