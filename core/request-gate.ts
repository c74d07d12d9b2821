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

/** Why the gate refused a request: the run's budget or time is spent, or (`held`) the caller's `ready` said not yet. */
export type GateRefusal = 'budget' | 'deadline' | 'held';

/** Admits requests within the run's concurrency, rate, count and time limits, and counts them. */
export interface RequestGate {
  /**
   * Runs `send` when a slot is free, or returns the refusal when the run's budget is spent; `ready`, asked last
   * before the request counts, can still turn it back (`held`: the caller waits and asks again).
   */
  admit<T>(send: () => Promise<T>, ready?: () => boolean): Promise<{ ok: true; value: T } | { ok: false; refusal: GateRefusal }>;
  /** Requests admitted so far. */
  sent(): number;
  /** Requests still allowed, or Infinity. */
  remaining(): number;
}

/** Creates a request gate: a counting semaphore with a minimum interval between request starts. */
export function createRequestGate(limits: GateLimits): RequestGate {
  const interval = limits.maxRps > 0 ? 1000 / limits.maxRps : 0;
  let active = 0;
  let count = 0;
  let nextStart = 0;
  const waiting: Array<() => void> = [];

  const acquire = async (): Promise<void> => {
    if (active >= limits.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
  };
  const release = (): void => {
    active -= 1;
    waiting.shift()?.();
  };

  return {
    async admit(send, ready) {
      if (limits.maxRequests !== undefined && count >= limits.maxRequests) return { ok: false, refusal: 'budget' };
      await acquire();
      try {
        if (limits.maxRequests !== undefined && count >= limits.maxRequests) return { ok: false, refusal: 'budget' };
        if (interval > 0) {
          const now = Date.now();
          const start = Math.max(now, nextStart);
          nextStart = start + interval;
          if (start > now) await sleep(start - now);
        }
        if (Date.now() >= limits.deadline) return { ok: false, refusal: 'deadline' };
        if (ready && !ready()) return { ok: false, refusal: 'held' };
        count += 1;
        return { ok: true, value: await send() };
      } finally {
        release();
      }
    },
    sent: () => count,
    remaining: () => (limits.maxRequests === undefined ? Infinity : Math.max(0, limits.maxRequests - count)),
  };
}
