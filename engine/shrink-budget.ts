import type { RequestGate } from '../transport/request-gate.ts';

/** What the run may spend on shrinking, shared by every shrinker of every suite. */
export interface ShrinkBudget {
  /** Shrink requests sent so far: by the minimal examples (one request a candidate) and by the sequences. */
  readonly spent: { readonly requests: number; readonly sequences: number };
  /**
   * Why no further `count` shrink requests (1 unless given: requests sent at once) may go out now (the run was
   * interrupted, `--max-requests` has not as many left beyond the plan), or undefined when they may.
   */
  refusal(count?: number): string | undefined;
  /** Counts one shrink request about to be sent, of a minimal example or of a sequence. */
  spend(kind: 'requests' | 'sequences'): void;
}

/** What the budget is drawn from: the run's gate and `--max-requests`, and the requests the plan needs of it. */
export interface ShrinkBudgetLimits {
  readonly gate: Pick<RequestGate, 'interrupted' | 'remaining'>;
  readonly maxRequests?: number;
  /**
   * Requests the plan sends (the preflight's included): with `--max-requests`, shrinking spends only what is left
   * beyond them; unknown, nothing is.
   */
  readonly planned?: number;
  /** Put-backs kept beyond the plan (only a target breaking the contract makes the run send them): not shrinking's. */
  readonly putBacks?: number;
}

/**
 * Creates the run's shrink budget, with nothing spent: with `--max-requests`, every shrink of the run draws on what the
 * plan leaves (`--max-requests` minus the planned requests, whether sent yet or not, minus the shrink requests sent),
 * so that shrinking never takes a request a rule needs; the gate's own count stops it at `--max-requests` in any case.
 */
export function createShrinkBudget(limits: ShrinkBudgetLimits): ShrinkBudget {
  const spent = { requests: 0, sequences: 0 };
  const { gate, maxRequests, planned, putBacks = 0 } = limits;
  const leftover =
    maxRequests === undefined ? Infinity : Math.max(0, maxRequests - (planned ?? maxRequests) - putBacks);
  const kept = putBacks > 0 ? ` and the ${putBacks} kept for put-backs` : '';
  return {
    spent,
    refusal(count = 1) {
      if (gate.interrupted.aborted) return 'the run was interrupted';
      if (spent.requests + spent.sequences + count > leftover)
        return (
          `--max-requests ${maxRequests} leaves ${leftover} request(s) beyond the ` +
          `${planned ?? 'unknown number'} the plan needs${kept}, and shrinking has spent them`
        );
      if (gate.remaining() < count) return `the run reached --max-requests ${maxRequests}`;
      return undefined;
    },
    spend(kind) {
      spent[kind] += 1;
    },
  };
}
