/**
 * Which rate-limit headers a limiter sends: `x-ratelimit-reset`, on a 429 only, the epoch second its window ends;
 * `retry-after-60`, on a 429 only, `Retry-After: 60` beside `RateLimit-Reset: <seconds left>` (the alerts server of
 * the field); `ratelimit-remaining`, on every answer, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * (IETF draft), and on a 429 `Retry-After: 60` too.
 */
export type LimiterSignals = 'x-ratelimit-reset' | 'retry-after-60' | 'ratelimit-remaining';

/** A fixed-window limiter's settings: `limit` requests per credential in each window of `windowMs`. */
export interface LimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly signals: LimiterSignals;
}

/** What a limiter decided for one request: let through or 429, and the headers to answer with. */
export interface LimiterDecision {
  readonly allowed: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/** What a limiter saw of one credential. */
export interface LimiterCount {
  readonly accepted: number;
  readonly limited: number;
  /** When its first request came (epoch ms). */
  readonly first: number;
  /** When its last accepted request came (epoch ms). */
  readonly lastAccepted: number;
}

/** A fixed-window rate limiter per credential, as a real server keeps one, counting what it sees. */
export interface Limiter {
  readonly options: LimiterOptions;
  /** Counts one request of `credential` (its `Authorization` header, '' for none) and decides it. */
  decide(credential: string, now?: number): LimiterDecision;
  /** Requests let through and answered 429, over every credential. */
  totals(): { readonly accepted: number; readonly limited: number };
  /** What it saw per credential. */
  credentials(): ReadonlyMap<string, LimiterCount>;
  /**
   * The least time, from the first request of any credential, in which the accepted requests could have been sent
   * under this limit: every credential's windows filled from that first request on.
   */
  leastPossibleMs(): number;
}

/**
 * Creates a limiter whose windows are aligned to multiples of `windowMs` on the epoch clock, as counters keyed by
 * window are.
 */
export function createLimiter(options: LimiterOptions): Limiter {
  const { limit, windowMs, signals } = options;
  const counters = new Map<string, { window: number; used: number }>();
  const seen = new Map<string, LimiterCount>();

  return {
    options,
    decide(credential, now = Date.now()) {
      const window = Math.floor(now / windowMs);
      const counter = counters.get(credential);
      const used = counter && counter.window === window ? counter.used + 1 : 1;
      counters.set(credential, { window, used });
      const allowed = used <= limit;
      const before = seen.get(credential) ?? { accepted: 0, limited: 0, first: now, lastAccepted: now };
      seen.set(
        credential,
        allowed
          ? { ...before, accepted: before.accepted + 1, lastAccepted: now }
          : { ...before, limited: before.limited + 1 },
      );
      const end = (window + 1) * windowMs;
      const secondsLeft = String(Math.ceil((end - now) / 1000));
      const headers: Record<string, string> = {};
      if (signals === 'ratelimit-remaining') {
        Object.assign(headers, {
          'ratelimit-limit': String(limit),
          'ratelimit-remaining': String(Math.max(0, limit - used)),
          'ratelimit-reset': secondsLeft,
        });
      }
      if (!allowed && signals === 'x-ratelimit-reset') headers['x-ratelimit-reset'] = String(Math.ceil(end / 1000));
      if (!allowed && signals === 'retry-after-60')
        Object.assign(headers, { 'retry-after': '60', 'ratelimit-reset': secondsLeft });
      if (!allowed && signals === 'ratelimit-remaining') headers['retry-after'] = '60';
      return { allowed, headers };
    },
    totals() {
      const all = [...seen.values()];
      return { accepted: all.reduce((n, c) => n + c.accepted, 0), limited: all.reduce((n, c) => n + c.limited, 0) };
    },
    credentials: () => seen,
    leastPossibleMs() {
      const all = [...seen.values()];
      if (all.length === 0) return 0;
      const start = Math.min(...all.map((c) => c.first));
      const firstEnd = (Math.floor(start / windowMs) + 1) * windowMs;
      const fullWindows = Math.max(...all.map((c) => Math.floor((c.accepted - 1) / limit)));
      return fullWindows === 0 ? 0 : firstEnd + (fullWindows - 1) * windowMs - start;
    },
  };
}
