import { readRateLimit } from './rate-limit-headers.ts';

/** How long a pacer may hold requests back. */
export interface PacerLimits {
  /** The longest hold worth waiting for (ms); a reset further ahead is left to the 429 it brings. */
  readonly maxHoldMs: number;
  /** Epoch milliseconds after which no request starts, so no hold reaches past it. */
  readonly deadline: number;
}

/** One request a pacer let start, to settle when its answer (or none) comes. */
export interface PacerClaim {
  readonly window: number;
  /** Sent past a spent allowance whose reset is unknown, to find the limit. */
  readonly probe: boolean;
}

/** The status and headers of an answer, all a pacer reads. */
export interface PacerAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Paces the requests of one credential to what its limiter is expected to accept. */
export interface CredentialPacer {
  /** Resolves when the limiter is expected to take one more request (at once while nothing is known). */
  open(): Promise<void>;
  /** Claims a start if the limiter is expected to take one more request now. */
  tryClaim(): PacerClaim | undefined;
  /** Settles a claim with the answer that came, or with none (no complete response). */
  settle(claim: PacerClaim, answer?: PacerAnswer): void;
  /** Holds every new request until `at` (epoch ms): the claim got a 429 that will be retried then. */
  holdUntil(claim: PacerClaim, at: number): void;
}

/** Two resets of one window, read from whole seconds, differ by less than this; those of two windows by more. */
const SAME_WINDOW_MS = 1000;

/**
 * Creates the pacer of one credential. It keeps an allowance for the limiter's current window: from
 * `RateLimit-Remaining` / `X-RateLimit-Remaining` less the requests still in flight when the limiter says so, else
 * the number of requests the limiter took in a window before its first 429 (learned again in every window). When the
 * allowance is spent it holds new requests until the window's reset (the earliest reliable signal,
 * see `readRateLimit`), or, with no reset known, lets one request at a time find the limit (more once they pass).
 * A 429 that will be retried holds every new request until the retry is due. Answers to requests sent in an earlier
 * window are not read: they tell about a window that is gone.
 */
export function createCredentialPacer(limits: PacerLimits): CredentialPacer {
  let window = 0;
  let inFlight = 0;
  /** Requests the current window is expected to take still; Infinity while nothing is known. */
  let allowance = Infinity;
  /** When the current window reopens (epoch ms), when known. */
  let resetAt: number | undefined;
  /** Requests per window: the limiter's own header, else learned. */
  let limit: number | undefined;
  let limitFromHeader = false;
  /** Answers other than 429 in this window, and whether it gave a 429 yet. */
  let accepted = 0;
  let limited = false;
  /** Requests in flight allowed past a spent allowance of unknown reset: probes, one more for each that passes. */
  let probes = 1;
  const waiters = new Set<() => void>();

  const rollOver = (): void => {
    window += 1;
    accepted = 0;
    limited = false;
    probes = 1;
    allowance = limit ?? Infinity;
    resetAt = undefined;
  };
  const mayStart = (now: number): boolean => {
    if (resetAt !== undefined && now >= resetAt) rollOver();
    if (allowance > 0) return true;
    if (resetAt === undefined) return inFlight < probes;
    return resetAt - now > limits.maxHoldMs || resetAt > limits.deadline;
  };
  const changeOr = (ms: number | undefined): Promise<void> =>
    new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(wake, Math.max(0, ms));
      waiters.add(wake);
    });
  const notify = (): void => {
    for (const wake of [...waiters]) wake();
  };
  const observe = (claim: PacerClaim, answer: PacerAnswer, now: number): void => {
    const signals = readRateLimit(answer.headers, now);
    if (signals.limit !== undefined) {
      limit = signals.limit;
      limitFromHeader = true;
    }
    if (answer.status === 429) {
      if (!limited && !limitFromHeader && accepted > 0) limit = accepted;
      limited = true;
      allowance = Math.min(allowance, 0);
      return;
    }
    if (signals.remaining !== undefined) {
      if (signals.resetAt !== undefined && resetAt !== undefined && signals.resetAt >= resetAt + SAME_WINDOW_MS)
        rollOver();
      allowance = Math.min(allowance, signals.remaining - inFlight);
      if (signals.resetAt !== undefined) resetAt = Math.min(resetAt ?? Infinity, signals.resetAt);
    } else if (claim.probe) {
      probes += 1;
    }
    accepted += 1;
  };

  return {
    async open() {
      for (let now = Date.now(); !mayStart(now); now = Date.now()) {
        await changeOr(resetAt === undefined ? undefined : resetAt - now);
      }
    },
    tryClaim() {
      if (!mayStart(Date.now())) return undefined;
      const probe = allowance <= 0 && resetAt === undefined;
      inFlight += 1;
      allowance -= 1;
      return { window, probe };
    },
    settle(claim, answer) {
      inFlight -= 1;
      if (answer && claim.window === window) observe(claim, answer, Date.now());
      notify();
    },
    holdUntil(claim, at) {
      if (claim.window !== window) return;
      allowance = Math.min(allowance, 0);
      resetAt = resetAt !== undefined && resetAt > Date.now() ? Math.min(resetAt, at) : at;
      notify();
    },
  };
}

/** The pacers of a run, one per API and credential (each API limits its own credential). */
export interface Pacers {
  /** The pacer of requests to `api` sent with this `Authorization` header (or none). */
  of(api: string, authorization: string | undefined): CredentialPacer;
}

/** Creates the pacers of a run; each is made on first use. */
export function createPacers(limits: PacerLimits): Pacers {
  const byCredential = new Map<string, CredentialPacer>();
  return {
    of(api, authorization) {
      const key = `${api}\n${authorization ?? ''}`;
      let pacer = byCredential.get(key);
      if (!pacer) {
        pacer = createCredentialPacer(limits);
        byCredential.set(key, pacer);
      }
      return pacer;
    },
  };
}
