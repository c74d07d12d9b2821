import type { RunConfig } from '../settings/config.ts';
import type { KnownFailures } from './known-failures.ts';
import type { PutBacks } from '../core/probe-types.ts';
import type { CreatedResource } from './run-report-types.ts';

/**
 * What a run is asked to do: the settings as resolved (with the embedded reference target's address once it listens),
 * and with `--baseline` the failures it accepts. Settled before the run's thread is handed it, the command pushes it
 * once.
 */
export interface RunSettings {
  readonly config: RunConfig;
  /** With `--baseline`: the failures it accepts (unexpired entries), which the tests report as skipped. */
  readonly knownFailures?: KnownFailures;
}

/**
 * A run ready to send (engine/prepare-run.ts): the settings with the examples per property the plan chose, what the
 * plan sends, and for a configured target the preflight's report. Plain data: the worker tells the command of it.
 */
export interface PreparedRun extends RunSettings {
  readonly plan: {
    readonly runs: number;
    readonly total: number;
    readonly putBacks: PutBacks;
    readonly warning?: string;
  };
  /**
   * For a configured target: the preflight's line and its requests, which count against `--max-requests` too, and what
   * its confirming writes created.
   */
  readonly preflight?: {
    readonly line: string;
    readonly requests: number;
    readonly created?: readonly CreatedResource[];
    /** With `--max-rps`: when the preflight's rate lets the run's first request start (epoch ms). */
    readonly nextStart?: number;
  };
}
