import type fc from 'fast-check';
import type { Exchange } from '../transport/exchange.ts';
import type { ProbeRequest } from './suite-types.ts';

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
