import { setTimeout as sleep } from 'node:timers/promises';

/** Limits of the gate every request of a run passes through. */
export interface GateLimits {
  readonly concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  readonly maxRps: number;
  /** Requests in the whole run at most; undefined for no limit. */
  readonly maxRequests?: number;
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
   * The request is a step of a chain (each step waits for the one before): it takes a free slot before requests that
   * are not.
   */
  readonly urgent?: boolean;
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
   * slots at a time, as urgent requests, so that two groups never hold each other's), all start in the same tick; the
   * rate limit spaces the group from other requests, not its members. Refused whole, or admitted whole.
   */
  admitTogether<T>(
    sends: readonly (() => Promise<T>)[],
  ): Promise<{ ok: true; values: T[] } | { ok: false; refusal: GateRefusal }>;
  /** Stops admitting requests other than restores; requests already sent finish. */
  interrupt(): void;
  /** Aborted when the run is interrupted, so that waits (rate limits, backoff) end early. */
  readonly interrupted: AbortSignal;
  /** Requests admitted so far. */
  sent(): number;
  /** Requests still allowed, or Infinity. */
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
  let nextStart = 0;
  let peakWaiting = 0;
  // Chain steps wait in their own queue, served first: a chain's time is its steps' waits added up, while
  // independent requests only need the slots to stay busy.
  const waiting = { urgent: [] as Array<() => void>, other: [] as Array<() => void> };

  const acquire = async (urgent: boolean): Promise<void> => {
    if (active >= limits.concurrency) {
      await new Promise<void>((resolve) => {
        (urgent ? waiting.urgent : waiting.other).push(resolve);
        peakWaiting = Math.max(peakWaiting, waiting.urgent.length + waiting.other.length);
      });
    }
    active += 1;
  };
  const release = (): void => {
    active -= 1;
    (waiting.urgent.shift() ?? waiting.other.shift())?.();
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

  let gathering: Promise<void> = Promise.resolve();

  return {
    async admitTogether(sends) {
      const n = sends.length;
      if (n > limits.concurrency)
        throw new RangeError(`${n} requests cannot be sent at once with a concurrency of ${limits.concurrency}`);
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted
          ? 'interrupted'
          : limits.maxRequests !== undefined && count + n > limits.maxRequests
            ? 'budget'
            : undefined;
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
        for (; held < n; held++) await acquire(true);
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
        return { ok: true, values: await Promise.all(sends.map((send) => send().finally(release))) };
      } finally {
        for (; held > started; held--) release();
      }
    },
    async admit(send, options = {}) {
      const restores = options.restores === true;
      const refused = (): GateRefusal | undefined =>
        stop.signal.aborted && !restores
          ? 'interrupted'
          : limits.maxRequests !== undefined && count >= limits.maxRequests
            ? 'budget'
            : undefined;
      const before = refused();
      if (before) return { ok: false, refusal: before };
      await acquire(options.urgent === true);
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
        return { ok: true, value: await send() };
      } finally {
        release();
      }
    },
    interrupt: () => stop.abort(),
    interrupted: stop.signal,
    sent: () => count,
    remaining: () => (limits.maxRequests === undefined ? Infinity : Math.max(0, limits.maxRequests - count)),
    waiting: () => ({ now: waiting.urgent.length + waiting.other.length, peak: peakWaiting }),
  };
}
