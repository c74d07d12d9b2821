/** What one response tells about its credential's rate limit, with reset instants on this machine's clock. */
export interface RateLimitSignals {
  /** When the limiter's window reopens (epoch ms): the earliest reliable reset signal; absent when none is reliable. */
  readonly resetAt?: number;
  /** Requests left in the current window (`RateLimit-Remaining` or `X-RateLimit-Remaining`, the lower of the two). */
  readonly remaining?: number;
  /** Requests a window allows (`RateLimit-Limit` or `X-RateLimit-Limit`, the lower of the two). */
  readonly limit?: number;
}

/** A reset further ahead than this is not believed: a misread unit or a broken clock, not a limiter's window. */
export const RESET_HORIZON_MS = 24 * 60 * 60 * 1000;

/** A reset this far behind our clock still counts (as "now"): HTTP dates and epoch seconds are whole seconds. */
export const RESET_PAST_TOLERANCE_MS = 1000;

const NUMBER = /^\d+(\.\d+)?$/;
const LEADING_INTEGER = /^\s*(\d+)/;

/**
 * Reads the rate-limit headers of a response (names in lower case).
 *
 * Reset signals, each turned into an instant: `Retry-After` (seconds from now, or an HTTP date), `RateLimit-Reset`
 * (IETF draft: seconds from now) and `X-RateLimit-Reset` (epoch milliseconds above 1e12, epoch seconds above 1e9,
 * else seconds from now; `RateLimit-Reset` is read the same way, since a count of seconds that large can only be an
 * epoch). A signal is reliable when it parses, is not more than {@link RESET_PAST_TOLERANCE_MS} in the past (an
 * epoch or a date further behind our clock is a clock disagreement, not a reset) and is within
 * {@link RESET_HORIZON_MS} ahead. When reliable signals disagree, the earliest wins: the limiter's own counter
 * (`RateLimit-Reset`, `X-RateLimit-Reset`) knows when its window reopens, while a `Retry-After` beside it is often a
 * fixed worst case (`60`); coming back too early costs one more 429 and brings a fresh signal, waiting for the
 * latest costs the difference on every 429.
 */
export function readRateLimit(
  headers: Readonly<Record<string, string | undefined>>,
  now = Date.now(),
): RateLimitSignals {
  const candidates = [
    retryAfterAt(headers['retry-after'], now),
    resetAt(headers['ratelimit-reset'], now),
    resetAt(headers['x-ratelimit-reset'], now),
  ];
  const reliable = candidates.filter(
    (at): at is number => at !== undefined && at >= now - RESET_PAST_TOLERANCE_MS && at <= now + RESET_HORIZON_MS,
  );
  const remaining = lowest(headers['ratelimit-remaining'], headers['x-ratelimit-remaining']);
  const limit = lowest(headers['ratelimit-limit'], headers['x-ratelimit-limit']);
  return {
    ...(reliable.length > 0 ? { resetAt: Math.max(now, Math.min(...reliable)) } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

function retryAfterAt(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (NUMBER.test(text)) return now + Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

function resetAt(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text || !NUMBER.test(text)) return undefined;
  const number = Number(text);
  if (number > 1e12) return number;
  if (number > 1e9) return number * 1000;
  return now + number * 1000;
}

/** The lower of two counts; draft-03's `RateLimit-Limit: 100, 100;w=60` counts by its first number. */
function lowest(...values: Array<string | undefined>): number | undefined {
  const numbers = values
    .map((value) => LEADING_INTEGER.exec(value ?? '')?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
  return numbers.length > 0 ? Math.min(...numbers) : undefined;
}
