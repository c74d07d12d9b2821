import { preview } from '../evidence/finding.ts';
import type { Violation } from '../rule-model/rule.ts';

/** The most writes one history may hold: every order of them is tried, 4! = 24 at most. */
export const MAX_LINEARIZED_WRITES = 4;

/** A write sent at once with others: when it was sent and answered (ms, one clock for all), and its answer. */
export interface TimedWrite<W, A> {
  readonly write: W;
  readonly sent: number;
  readonly answered: number;
  readonly answer: A;
}

/**
 * What the writes of a history do to a state, and what an answer or the read after them must show of it. `answer`
 * and `read` return where the actual value differs from the state (empty when it agrees).
 */
export interface LinearModel<S, W, A, R> {
  readonly initial: S;
  apply(state: S, write: W): S;
  /** Judges a write's answer against the state the write left (`state`, with the write applied). */
  answer(state: S, write: W, answer: A): readonly Violation[];
  /** Judges the read sent after every write was answered against the state they all left. */
  read(state: S, read: R): readonly Violation[];
}

/** Where an order first disagrees with what came back: a write's answer (its index in the history) or the read. */
export type Disagreement =
  | { readonly at: 'answer'; readonly write: number; readonly violations: readonly Violation[] }
  | { readonly at: 'read'; readonly violations: readonly Violation[] };

/** One order tried: the writes' indexes in the order applied, and its first disagreement when it explains nothing. */
export interface OrderTried {
  readonly order: readonly number[];
  readonly disagreement?: Disagreement;
}

/**
 * The verdict on a history: the admissible orders tried, in turn, up to the first that explains every answer and the
 * read (`explainedBy`); when none does, each with its first disagreement.
 */
export interface Linearization {
  readonly explainedBy?: readonly number[];
  readonly tried: readonly OrderTried[];
  /** How many orders the writes' intervals rule out (a write answered before another was sent comes first). */
  readonly inadmissible: number;
}

/**
 * Every order of `writes` consistent with real time: a write answered before another was sent comes before it. Writes
 * whose intervals overlap may come in either order.
 */
export function admissibleOrders(writes: readonly Pick<TimedWrite<unknown, unknown>, 'sent' | 'answered'>[]): {
  readonly orders: number[][];
  readonly inadmissible: number;
} {
  if (writes.length > MAX_LINEARIZED_WRITES)
    throw new RangeError(`A history holds at most ${MAX_LINEARIZED_WRITES} writes, not ${writes.length}.`);
  const orders: number[][] = [];
  let inadmissible = 0;
  for (const order of permutations(writes.map((_, index) => index))) {
    const admissible = order.every((later, position) =>
      order.slice(0, position).every((earlier) => !(writes[later]!.answered < writes[earlier]!.sent)),
    );
    if (admissible) orders.push(order);
    else inadmissible += 1;
  }
  return { orders, inadmissible };
}

/**
 * Whether some admissible order of the writes, applied one after another to the model's initial state, leaves each
 * write's answer and the read after them all as they came back (Herlihy and Wing's linearizability, by brute force).
 */
export function linearize<S, W, A, R>(
  model: LinearModel<S, W, A, R>,
  writes: readonly TimedWrite<W, A>[],
  read?: { readonly value: R },
): Linearization {
  const { orders, inadmissible } = admissibleOrders(writes);
  const tried: OrderTried[] = [];
  for (const order of orders) {
    const disagreement = firstDisagreement(model, writes, order, read);
    tried.push(disagreement ? { order, disagreement } : { order });
    if (!disagreement) return { explainedBy: order, tried, inadmissible };
  }
  return { tried, inadmissible };
}

function firstDisagreement<S, W, A, R>(
  model: LinearModel<S, W, A, R>,
  writes: readonly TimedWrite<W, A>[],
  order: readonly number[],
  read: { readonly value: R } | undefined,
): Disagreement | undefined {
  let state = model.initial;
  for (const index of order) {
    const { write, answer } = writes[index]!;
    state = model.apply(state, write);
    const violations = model.answer(state, write, answer);
    if (violations.length > 0) return { at: 'answer', write: index, violations };
  }
  if (read === undefined) return undefined;
  const violations = model.read(state, read.value);
  return violations.length > 0 ? { at: 'read', violations } : undefined;
}

/**
 * A linearization in words, for every report: the orders tried (the writes named by `name`, from their index) and the
 * one that explains what came back, or for each its first disagreement, expected against actual.
 */
export function renderLinearization(result: Linearization, name: (index: number) => string): string[] {
  const order = (indexes: readonly number[]): string => indexes.map(name).join(', then ');
  const ruledOut = result.inadmissible === 0 ? '' : `; ${result.inadmissible} ruled out by when they were answered`;
  const head = `${result.tried.length} order${result.tried.length === 1 ? '' : 's'} tried${ruledOut}`;
  if (result.explainedBy) return [`${head}: explained by ${order(result.explainedBy)}`];
  return [
    `${head}, none explains what came back:`,
    ...result.tried.map(({ order: indexes, disagreement }) => {
      const where = disagreement?.at === 'answer' ? `the answer to ${name(disagreement.write)}` : 'the read after them';
      const first = disagreement?.violations[0];
      const actual = first?.actual === undefined ? 'it is absent' : `got ${preview(first.actual)}`;
      return `- ${order(indexes)}: ${where}, ${first?.path || 'the response'}: expected ${first?.expected}, ${actual}`;
    }),
  ];
}

/** Every order of `items`, the given order first. */
function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((first, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [first, ...rest]),
  );
}
