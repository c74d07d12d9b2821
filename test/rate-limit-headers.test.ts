import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRateLimit, RESET_HORIZON_MS, RESET_PAST_TOLERANCE_MS } from '../transport/rate-limit-headers.ts';
import { retryDelayMs } from '../transport/retry-after.ts';

const NOW = Date.UTC(2026, 10, 23, 9, 30, 0, 250);

/** A reliable reset signal: its header, and the instant it names (epoch ms). */
interface Signal {
  readonly header: string;
  readonly value: string;
  readonly at: number;
}

const seconds = fc.integer({ min: 0, max: RESET_HORIZON_MS / 1000 });

/** Every form a reliable reset signal takes, with the instant it names relative to NOW. */
const reliableSignal: fc.Arbitrary<Signal> = fc.oneof(
  seconds.map((s) => ({ header: 'retry-after', value: String(s), at: NOW + s * 1000 })),
  seconds.map((s) => ({ header: 'ratelimit-reset', value: String(s), at: NOW + s * 1000 })),
  seconds.map((s) => ({ header: 'x-ratelimit-reset', value: String(s), at: NOW + s * 1000 })),
  fc.integer({ min: 1, max: RESET_HORIZON_MS / 1000 }).map((s) => {
    const at = Math.ceil(NOW / 1000) * 1000 + s * 1000 - 1000;
    return { header: 'x-ratelimit-reset', value: String(at / 1000), at };
  }),
  fc
    .integer({ min: 0, max: RESET_HORIZON_MS })
    .map((ms) => ({ header: 'x-ratelimit-reset', value: String(NOW + ms), at: NOW + ms })),
  fc.integer({ min: 1, max: RESET_HORIZON_MS / 1000 }).map((s) => {
    const at = Math.ceil(NOW / 1000) * 1000 + s * 1000 - 1000;
    return { header: 'retry-after', value: new Date(at).toUTCString(), at };
  }),
);

/** Signals that must never be believed: in the past beyond the tolerance, beyond the horizon, or not a time at all. */
const unreliableSignal: fc.Arbitrary<{ header: string; value: string }> = fc.oneof(
  fc
    .integer({ min: RESET_PAST_TOLERANCE_MS + 1000, max: 10 * RESET_HORIZON_MS })
    .map((ms) => ({ header: 'x-ratelimit-reset', value: String(Math.floor((NOW - ms) / 1000)) })),
  fc
    .integer({ min: RESET_PAST_TOLERANCE_MS + 1, max: 10 * RESET_HORIZON_MS })
    .map((ms) => ({ header: 'x-ratelimit-reset', value: String(NOW - ms) })),
  fc
    .integer({ min: RESET_PAST_TOLERANCE_MS + 1000, max: 10 * RESET_HORIZON_MS })
    .map((ms) => ({ header: 'retry-after', value: new Date(NOW - ms).toUTCString() })),
  fc
    .integer({ min: RESET_HORIZON_MS / 1000 + 1, max: 1e9 })
    .map((s) => ({ header: 'ratelimit-reset', value: String(s) })),
  fc
    .integer({ min: RESET_HORIZON_MS + 1000, max: 100 * RESET_HORIZON_MS })
    .map((ms) => ({ header: 'x-ratelimit-reset', value: String(NOW + ms) })),
  fc
    .constantFrom('soon', '-5', '', '1e3', 'NaN')
    .chain((value) =>
      fc.constantFrom('retry-after', 'ratelimit-reset', 'x-ratelimit-reset').map((header) => ({ header, value })),
    ),
);

/** Headers with one value per name; a later signal of a name already present is dropped. */
function headersOf(signals: ReadonlyArray<{ header: string; value: string }>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { header, value } of signals) headers[header] ??= value;
  return headers;
}

describe('readRateLimit', () => {
  it('reads each form of each reset header as the instant it names', () => {
    fc.assert(
      fc.property(reliableSignal, (signal) => {
        expect(readRateLimit({ [signal.header]: signal.value }, NOW).resetAt).toBe(signal.at);
      }),
    );
  });

  it('takes the earliest reliable signal, whatever unreliable ones stand beside it', () => {
    fc.assert(
      fc.property(
        fc.array(reliableSignal, { minLength: 1, maxLength: 3 }),
        fc.array(unreliableSignal, { maxLength: 3 }),
        (reliable, unreliable) => {
          const kept = Object.entries(headersOf(reliable));
          const expected = Math.min(
            ...reliable.filter((s) => kept.some(([h, v]) => h === s.header && v === s.value)).map((s) => s.at),
          );
          const withNoise = headersOf([...reliable, ...unreliable]);
          expect(readRateLimit(withNoise, NOW).resetAt).toBe(expected);
        },
      ),
    );
  });

  it('believes no reset from unreliable signals alone, and then retries on backoff', () => {
    fc.assert(
      fc.property(
        fc.array(unreliableSignal, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 5 }),
        (unreliable, attempt) => {
          const headers = headersOf(unreliable);
          expect(readRateLimit(headers, NOW).resetAt).toBeUndefined();
          expect(retryDelayMs(headers, attempt, 500, NOW)).toBe(500 * 2 ** attempt);
        },
      ),
    );
  });

  it('never names a reset before now: a reset up to a second behind is now', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: RESET_PAST_TOLERANCE_MS }), (behind) => {
        expect(readRateLimit({ 'x-ratelimit-reset': String(NOW - behind) }, NOW).resetAt).toBe(NOW);
      }),
    );
  });

  it('waits the seconds a limiter has left, not the fixed Retry-After beside them', () => {
    expect(retryDelayMs({ 'retry-after': '60', 'ratelimit-reset': '3' }, 0, 500, NOW)).toBe(3000);
    expect(
      retryDelayMs({ 'retry-after': '2', 'x-ratelimit-reset': String(Math.floor(NOW / 1000) + 30) }, 0, 500, NOW),
    ).toBe(2000);
  });

  it('reads remaining and limit from either spelling, the lower when both come', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), (a, b, limit) => {
        expect(
          readRateLimit(
            {
              'ratelimit-remaining': String(a),
              'x-ratelimit-remaining': String(b),
              'x-ratelimit-limit': String(limit),
            },
            NOW,
          ),
        ).toEqual({ remaining: Math.min(a, b), limit });
      }),
    );
    expect(
      readRateLimit({ 'ratelimit-limit': '100, 100;w=60', 'ratelimit-remaining': '7', 'ratelimit-reset': '12' }, NOW),
    ).toEqual({ limit: 100, remaining: 7, resetAt: NOW + 12_000 });
    expect(readRateLimit({ 'x-ratelimit-remaining': 'many' }, NOW)).toEqual({});
  });
});
