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
  /** Epoch milliseconds before which no request starts: where an earlier gate's rate left off (its `nextStart`). */
  readonly notBefore?: number;
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
  /**
   * Waits `ms`, or until the run is interrupted (true when the wait ran its course): every wait of the run hangs on the
   * gate's one listener of the interrupt, never one of its own on the signal, however many wait at once.
   */
  pause(ms: number): Promise<boolean>;
  /** Requests admitted so far. */
  sent(): number;
  /** Epoch milliseconds before which the rate limit lets no further request start; 0 with no rate limit. */
  nextStart(): number;
  /** Requests other than put-backs still allowed, or Infinity. */
  remaining(): number;
  /**
   * Requests waiting for a free slot now, and the most that ever waited at once: what a run holds beside what is in
   * flight.
   */
  waiting(): { readonly now: number; readonly peak: number };
}

/** The gate's slots: a counting semaphore of `concurrency`, whose open lanes keep a slot for a chain's next step. */
interface Slots {
  /** Resolves once the request (of `lane`, or of a group that holds slots already: `gathering`) has its slot. */
  acquire(lane: string | undefined, gathering?: boolean): Promise<void>;
  release(lane: string | undefined): void;
  openLane(lane: string): void;
  closeLane(lane: string): void;
  waiting(): { readonly now: number; readonly peak: number };
}

/** Creates the slots of a gate of `concurrency`. */
function createSlots(concurrency: number): Slots {
  let active = 0;
  let peakWaiting = 0;
  /** Open lanes, each with its requests in flight (or gathering their slots). */
  const lanes = new Map<string, number>();
  /** Requests waiting for a slot, in arrival order; `gathering` marks a member of a group after its first slot. */
  const waiting: Array<{ readonly lane?: string; readonly gathering: boolean; readonly start: () => void }> = [];

  /** Slots kept for open lanes other than `lane` that have nothing in flight. */
  const kept = (lane: string | undefined): number => {
    let idle = 0;
    for (const [name, inFlight] of lanes) if (name !== lane && inFlight === 0) idle += 1;
    return Math.min(idle, concurrency - 1);
  };
  const mayStart = (lane: string | undefined, gathering: boolean): boolean =>
    active < concurrency &&
    (gathering || (lane !== undefined && lanes.get(lane) === 0) || active + 1 + kept(lane) <= concurrency);
  const take = (lane: string | undefined): void => {
    active += 1;
    if (lane !== undefined && lanes.has(lane)) lanes.set(lane, lanes.get(lane)! + 1);
  };
  /** Starts every waiting request that may start now: steps of a chain first, each kind in arrival order. */
  const pump = (): void => {
    for (const chained of [true, false]) {
      for (let i = 0; i < waiting.length && active < concurrency; ) {
        const next = waiting[i]!;
        if ((next.lane !== undefined || next.gathering) === chained && mayStart(next.lane, next.gathering)) {
          waiting.splice(i, 1);
          take(next.lane);
          next.start();
        } else i += 1;
      }
    }
  };
  return {
    async acquire(lane, gathering = false) {
      if (waiting.length === 0 && mayStart(lane, gathering)) return take(lane);
      await new Promise<void>((start) => {
        waiting.push({ ...(lane === undefined ? {} : { lane }), gathering, start });
        peakWaiting = Math.max(peakWaiting, waiting.length);
        pump();
      });
    },
    release(lane) {
      active -= 1;
      const inFlight = lane === undefined ? undefined : lanes.get(lane);
      if (inFlight !== undefined) lanes.set(lane!, inFlight - 1);
      pump();
    },
    openLane(lane) {
      if (!lanes.has(lane)) lanes.set(lane, 0);
    },
    closeLane(lane) {
      lanes.delete(lane);
      pump();
    },
    waiting: () => ({ now: waiting.length, peak: peakWaiting }),
  };
}

/** The gate's count of requests against `maxRequests`, put-backs apart. */
interface Budget {
  /** Requests other than put-backs still allowed, or Infinity. */
  left(): number;
  /** True when `n` more requests would overrun the budget: a put-back's is the whole `maxRequests`. */
  over(n: number, restores: boolean): boolean;
  /** Counts `n` requests admitted. */
  spend(n: number, restores: boolean): void;
  sent(): number;
}

/** Creates the budget of a gate's limits. */
function createBudget({ maxRequests, putBacks = 0 }: Pick<GateLimits, 'maxRequests' | 'putBacks'>): Budget {
  let count = 0;
  /** Put-backs admitted so far. */
  let restored = 0;
  // Within `maxRequests` less what is kept for put-backs, and within `maxRequests` itself (a run that sends more
  // put-backs than it kept takes the rest).
  const left = (): number =>
    maxRequests === undefined
      ? Infinity
      : Math.max(0, Math.min(maxRequests - putBacks - (count - restored), maxRequests - count));
  return {
    left,
    over: (n, restores) => maxRequests !== undefined && (restores ? count + n > maxRequests : n > left()),
    spend(n, restores) {
      count += n;
      if (restores) restored += n;
    },
    sent: () => count,
  };
}

/** The gate's spacing of request starts at `maxRps`. */
interface Spacing {
  /**
   * Takes the next `n` starts and waits for the first; false when an interrupt (`stop`) ended the wait of requests
   * that do not restore.
   */
  wait(n: number, restores: boolean): Promise<boolean>;
  nextStart(): number;
}

/** Waits that an interrupt ends early, all through one listener of the interrupt's signal. */
function createPauses(stop: AbortSignal): (ms: number) => Promise<boolean> {
  const waiting = new Set<() => void>();
  stop.addEventListener(
    'abort',
    () => {
      for (const end of [...waiting]) end();
    },
    { once: true },
  );
  return (ms) =>
    new Promise<boolean>((resolve) => {
      if (stop.aborted) return resolve(false);
      const end = (): void => {
        clearTimeout(timer);
        waiting.delete(end);
        resolve(!stop.aborted);
      };
      const timer = setTimeout(end, ms);
      waiting.add(end);
    });
}

/** Creates the spacing of `maxRps` (none for 0), its first start not before `notBefore`. */
function createSpacing(maxRps: number, notBefore: number, pause: (ms: number) => Promise<boolean>): Spacing {
  const interval = maxRps > 0 ? 1000 / maxRps : 0;
  let next = notBefore;
  return {
    async wait(n, restores) {
      if (interval === 0) return true;
      const start = Math.max(Date.now(), next);
      next = start + n * interval;
      const ms = start - Date.now();
      if (ms <= 0) return true;
      if (restores) {
        await sleep(ms);
        return true;
      }
      return pause(ms);
    },
    nextStart: () => (interval === 0 ? 0 : next),
  };
}

/** Creates a request gate: a counting semaphore with a minimum interval between request starts. */
export function createRequestGate(limits: GateLimits): RequestGate {
  const stop = new AbortController();
  const slots = createSlots(limits.concurrency);
  const budget = createBudget(limits);
  const pause = createPauses(stop.signal);
  const spacing = createSpacing(limits.maxRps, limits.notBefore ?? 0, pause);
  /** Groups gather their slots one at a time: each waits for the one before. */
  let gathering: Promise<void> = Promise.resolve();

  return {
    async admitTogether(sends, options = {}) {
      const { lane } = options;
      const n = sends.length;
      if (n > limits.concurrency)
        throw new RangeError(`${n} requests cannot be sent at once with a concurrency of ${limits.concurrency}`);
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted ? 'interrupted' : budget.over(n, false) ? 'budget' : undefined;
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
        for (; held < n; held++) await slots.acquire(lane, held > 0 || lane === undefined);
      } finally {
        gathered();
      }
      let started = 0;
      try {
        const queued = refused();
        if (queued) return { ok: false, refusal: queued };
        if (!(await spacing.wait(n, false))) return { ok: false, refusal: 'interrupted' };
        if (Date.now() >= limits.deadline) return { ok: false, refusal: 'deadline' };
        budget.spend(n, false);
        started = n;
        return { ok: true, values: await Promise.all(sends.map((send) => send().finally(() => slots.release(lane)))) };
      } finally {
        for (; held > started; held--) slots.release(lane);
      }
    },
    async admit(send, options = {}) {
      const restores = options.restores === true;
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted && !restores ? 'interrupted' : budget.over(1, restores) ? 'budget' : undefined;
      const before = refused();
      if (before) return { ok: false, refusal: before };
      const { lane } = options;
      await slots.acquire(lane);
      try {
        const queued = refused();
        if (queued) return { ok: false, refusal: queued };
        if (!(await spacing.wait(1, restores))) return { ok: false, refusal: 'interrupted' };
        if (Date.now() >= limits.deadline) return { ok: false, refusal: 'deadline' };
        if (options.ready && !options.ready()) return { ok: false, refusal: 'held' };
        budget.spend(1, restores);
        return { ok: true, value: await send() };
      } finally {
        slots.release(lane);
      }
    },
    openLane: (lane) => slots.openLane(lane),
    closeLane: (lane) => slots.closeLane(lane),
    interrupt: () => stop.abort(),
    interrupted: stop.signal,
    pause,
    sent: budget.sent,
    remaining: budget.left,
    nextStart: spacing.nextStart,
    waiting: slots.waiting,
  };
}
