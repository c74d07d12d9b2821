import type { ProbeClass } from '../core/probe-types.ts';

/** Every default setting of a run, in one place. */
export const DEFAULTS = Object.freeze({
  runs: 8,
  timeoutMs: 10_000,
  budgetMs: 600_000,
  maxRps: 0,
  concurrency: 8,
  maxResponseBytes: 4 * 1024 * 1024,
  reportDir: 'reports/out',
  /** The probe classes of a run against a configured target: `disruptive` (the service's state) only when named. */
  allow: Object.freeze(['read', 'write'] as ProbeClass[]),
  /** The probe classes of a run against the embedded reference target: every class. */
  allowOnReference: Object.freeze(['read', 'write', 'disruptive'] as ProbeClass[]),
  rateLimitMaxWaitMs: 60_000,
  rateLimitBackoffMs: 500,
  findingsPerResult: 5,
  /** Requests that shrinking one failure may send against the target. */
  shrinkRequestsPerCause: 40,
  /** Requests that shrinking may send in a whole run (with `--max-requests`, at most what the plan leaves). */
  shrinkRequestsPerRun: 120,
  /**
   * Requests that shrinking one cause (a rule on an operation) of the model-based sequences may send: each candidate
   * sends a whole sequence again; with `--max-requests`, at most what the plan leaves.
   */
  sequenceShrinkRequestsPerCause: 300,
  /** Off a terminal, a progress line after this long without output. */
  heartbeatMs: 5_000,
});
