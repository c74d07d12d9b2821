import { setTimeout as sleep } from 'node:timers/promises';

/** Limits of the gate every request of a run passes through. */
export interface GateLimits {
  readonly concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  readonly maxRps: number;
  /** Requests in the whole run at most; undefined for no limit. */
  readonly maxRequests?: number;
  /**
   * Requests of `maxRequests` kept for put-backs (`restores`): the others may spend only the rest, so that a put-back
   * is never refused for the budget while the run sends no more put-backs than this.
   */
  readonly putBacks?: number;
  /** Epoch milliseconds after which no request starts. */
  readonly deadline: number;
}

/**
 * Why the gate refused a request: the budget or time is spent, the run was interrupted, or (`held`) the caller's
 * `ready` said not yet.
 */
export type GateRefusal = 'budget' | 'deadline' | 'interrupted' | 'held';

/** What the gate needs to know of a request beside its limits. */
export interface AdmitOptions {
  /** The request puts back what the run changed: it is still sent after an interrupt. */
  readonly restores?: boolean;
  /** Asked last before the request counts; false turns it back as `held` (the caller waits and asks again). */
  readonly ready?: () => boolean;
  /**
   * The chain the request is a step of (each step waits for the one before; a chain is a lane of the gate): it takes
   * a free slot before requests of no lane, and a lane opened with `openLane` keeps a slot while none is in flight.
   */
  readonly lane?: string;
}

/** Admits requests within the run's concurrency, rate, count and time limits, and counts them. */
export interface RequestGate {
  /**
   * Runs `send` when a slot is free, or returns the refusal when the run's budget is spent or the run was interrupted.
   */
  admit<T>(
    send: () => Promise<T>,
    options?: AdmitOptions,
  ): Promise<{ ok: true; value: T } | { ok: false; refusal: GateRefusal }>;
  /**
   * Runs every one of `sends` at once (a barrier): once `sends.length` slots are free together (one group gathers its
   * slots at a time, before requests of no lane, so that two groups never hold each other's), all start in the same
   * tick; the rate limit spaces the group from other requests, not its members. Refused whole, or admitted whole.
   */
  admitTogether<T>(
    sends: readonly (() => Promise<T>)[],
    options?: { readonly lane?: string },
  ): Promise<{ ok: true; values: T[] } | { ok: false; refusal: GateRefusal }>;
  /**
   * A chain starts: until `closeLane`, while none of its requests is in flight, requests of other lanes and of none
   * leave it a free slot (at most concurrency − 1 slots are kept so), so that its next step never waits for a slot. A
   * chain's time is its steps' waits added up; requests that are not steps only need the slots to stay busy.
   */
  openLane(lane: string): void;
  /** The chain is through: its slot is no longer kept. */
  closeLane(lane: string): void;
  /** Stops admitting requests other than restores; requests already sent finish. */
  interrupt(): void;
  /** Aborted when the run is interrupted, so that waits (rate limits, backoff) end early. */
  readonly interrupted: AbortSignal;
  /** Requests admitted so far. */
  sent(): number;
  /** Requests other than put-backs still allowed, or Infinity. */
  remaining(): number;
  /**
   * Requests waiting for a free slot now, and the most that ever waited at once: what a run holds beside what is in
   * flight.
   */
  waiting(): { readonly now: number; readonly peak: number };
}

/** Creates a request gate: a counting semaphore with a minimum interval between request starts. */
export function createRequestGate(limits: GateLimits): RequestGate {
  const interval = limits.maxRps > 0 ? 1000 / limits.maxRps : 0;
  const stop = new AbortController();
  let active = 0;
  let count = 0;
  /** Put-backs admitted so far. */
  let restored = 0;
  let nextStart = 0;
  let peakWaiting = 0;
  /** Open lanes, each with its requests in flight (or gathering their slots). */
  const lanes = new Map<string, number>();
  /** Requests waiting for a slot, in arrival order; `gathering` marks a member of a group after its first slot. */
  const waiting: Array<{ readonly lane?: string; readonly gathering: boolean; readonly start: () => void }> = [];

  /** Slots kept for open lanes other than `lane` that have nothing in flight. */
  const kept = (lane: string | undefined): number => {
    let idle = 0;
    for (const [name, inFlight] of lanes) if (name !== lane && inFlight === 0) idle += 1;
    return Math.min(idle, limits.concurrency - 1);
  };
  const mayStart = (lane: string | undefined, gathering: boolean): boolean =>
    active < limits.concurrency &&
    (gathering || (lane !== undefined && lanes.get(lane) === 0) || active + 1 + kept(lane) <= limits.concurrency);
  const take = (lane: string | undefined): void => {
    active += 1;
    if (lane !== undefined && lanes.has(lane)) lanes.set(lane, lanes.get(lane)! + 1);
  };
  /** Starts every waiting request that may start now: steps of a chain first, each kind in arrival order. */
  const pump = (): void => {
    for (const chained of [true, false]) {
      for (let i = 0; i < waiting.length && active < limits.concurrency; ) {
        const next = waiting[i]!;
        if ((next.lane !== undefined || next.gathering) === chained && mayStart(next.lane, next.gathering)) {
          waiting.splice(i, 1);
          take(next.lane);
          next.start();
        } else i += 1;
      }
    }
  };
  const acquire = async (lane: string | undefined, gathering = false): Promise<void> => {
    if (waiting.length === 0 && mayStart(lane, gathering)) return take(lane);
    await new Promise<void>((start) => {
      waiting.push({ ...(lane === undefined ? {} : { lane }), gathering, start });
      peakWaiting = Math.max(peakWaiting, waiting.length);
      pump();
    });
  };
  const release = (lane: string | undefined): void => {
    active -= 1;
    const inFlight = lane === undefined ? undefined : lanes.get(lane);
    if (inFlight !== undefined) lanes.set(lane!, inFlight - 1);
    pump();
  };
  /** Waits until `start`; false when an interrupt ended the wait of a request that does not restore. */
  const waitUntil = async (start: number, restores: boolean): Promise<boolean> => {
    const ms = start - Date.now();
    if (ms <= 0) return true;
    if (restores) {
      await sleep(ms);
      return true;
    }
    return sleep(ms, true, { signal: stop.signal }).catch((error: unknown) => {
      if (stop.signal.aborted) return false;
      throw error;
    });
  };

  /**
   * Requests other than put-backs still allowed: within `maxRequests` less what is kept for put-backs, and within
   * `maxRequests` itself (a run that sends more put-backs than it kept takes the rest).
   */
  const left = (): number =>
    limits.maxRequests === undefined
      ? Infinity
      : Math.max(
          0,
          Math.min(limits.maxRequests - (limits.putBacks ?? 0) - (count - restored), limits.maxRequests - count),
        );
  /** True when `n` more requests would overrun the budget: a put-back's is the whole `maxRequests`. */
  const overBudget = (n: number, restores: boolean): boolean =>
    limits.maxRequests !== undefined && (restores ? count + n > limits.maxRequests : n > left());

  let gathering: Promise<void> = Promise.resolve();

  return {
    async admitTogether(sends, options = {}) {
      const { lane } = options;
      const n = sends.length;
      if (n > limits.concurrency)
        throw new RangeError(`${n} requests cannot be sent at once with a concurrency of ${limits.concurrency}`);
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted ? 'interrupted' : overBudget(n, false) ? 'budget' : undefined;
      const before = refused();
      if (before) return { ok: false, refusal: before };
      const previous = gathering;
      let gathered!: () => void;
      gathering = new Promise<void>((resolve) => {
        gathered = resolve;
      });
      await previous;
      let held = 0;
      try {
        // After its first slot a group gathers the rest as they free, kept slots included: it holds what it has.
        for (; held < n; held++) await acquire(lane, held > 0 || lane === undefined);
      } finally {
        gathered();
      }
      let started = 0;
      try {
        const queued = refused();
        if (queued) return { ok: false, refusal: queued };
        if (interval > 0) {
          const start = Math.max(Date.now(), nextStart);
          nextStart = start + n * interval;
          if (!(await waitUntil(start, false))) return { ok: false, refusal: 'interrupted' };
        }
        if (Date.now() >= limits.deadline) return { ok: false, refusal: 'deadline' };
        count += n;
        started = n;
        return { ok: true, values: await Promise.all(sends.map((send) => send().finally(() => release(lane)))) };
      } finally {
        for (; held > started; held--) release(lane);
      }
    },
    async admit(send, options = {}) {
      const restores = options.restores === true;
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted && !restores ? 'interrupted' : overBudget(1, restores) ? 'budget' : undefined;
      const before = refused();
      if (before) return { ok: false, refusal: before };
      const { lane } = options;
      await acquire(lane);
      try {
        const queued = refused();
        if (queued) return { ok: false, refusal: queued };
        if (interval > 0) {
          const start = Math.max(Date.now(), nextStart);
          nextStart = start + interval;
          if (!(await waitUntil(start, restores))) return { ok: false, refusal: 'interrupted' };
        }
        if (Date.now() >= limits.deadline) return { ok: false, refusal: 'deadline' };
        if (options.ready && !options.ready()) return { ok: false, refusal: 'held' };
        count += 1;
        if (restores) restored += 1;
        return { ok: true, value: await send() };
      } finally {
        release(lane);
      }
    },
    openLane(lane) {
      if (!lanes.has(lane)) lanes.set(lane, 0);
    },
    closeLane(lane) {
      lanes.delete(lane);
      pump();
    },
    interrupt: () => stop.abort(),
    interrupted: stop.signal,
    sent: () => count,
    remaining: left,
    waiting: () => ({ now: waiting.length, peak: peakWaiting }),
  };
}
