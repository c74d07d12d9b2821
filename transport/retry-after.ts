import { readRateLimit } from './rate-limit-headers.ts';

/**
 * How long to wait before retrying a 429, in milliseconds: until the earliest reliable reset signal of the answer
 * (`Retry-After`, `RateLimit-Reset`, `X-RateLimit-Reset`: see {@link readRateLimit}), else exponential backoff.
 */
export function retryDelayMs(
  headers: Readonly<Record<string, string>>,
  attempt: number,
  backoffMs: number,
  now = Date.now(),
): number {
  const { resetAt } = readRateLimit(headers, now);
  return resetAt !== undefined ? resetAt - now : backoffMs * 2 ** attempt;
}
