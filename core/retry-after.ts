/**
 * How long to wait before retrying a 429, in milliseconds: from `Retry-After` (seconds or an HTTP date),
 * else `X-RateLimit-Reset` (epoch seconds, epoch milliseconds or seconds from now), else exponential backoff.
 */
export function retryDelayMs(headers: Readonly<Record<string, string>>, attempt: number, backoffMs: number, now = Date.now()): number {
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers['x-ratelimit-reset']?.trim();
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const value = Number(reset);
    if (value > 1e12) return Math.max(0, value - now);
    if (value > 1e9) return Math.max(0, value * 1000 - now);
    return value * 1000;
  }
  return backoffMs * 2 ** attempt;
}
