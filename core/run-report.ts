import type { RuleResult } from './finding.ts';
import type { OperationCoverage } from './ledger.ts';

/** A resource the run created on the target, for people to clean up. */
export interface CreatedResource {
  readonly kind: 'pipe' | 'key' | 'alert-update' | 'service-state';
  readonly id: string;
  readonly operation: string;
  readonly note: string;
}

/** What one suite reports beside its verdicts: coverage, created resources, requests. */
export interface SuiteReport {
  readonly suite: string;
  readonly coverage: Readonly<Record<string, OperationCoverage>>;
  readonly created: readonly CreatedResource[];
  readonly requests: number;
  readonly rateLimited: number;
  readonly skippedGroups: readonly { readonly group: string; readonly reason: string }[];
}

/** Overall outcome: `error` when the harness itself could not judge. */
export type RunOutcome = 'passed' | 'failed' | 'error';

/** The complete, redacted result of a run: what `findings.json` holds and every report is rendered from. */
export interface RunReport {
  readonly outcome: RunOutcome;
  readonly seed: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly target: {
    readonly management?: { readonly baseUrl: string; readonly organizationId: string; readonly serviceId: string; readonly backupId?: string };
    readonly alerts?: { readonly baseUrl: string; readonly alertId?: string };
    readonly reference?: { readonly faults: readonly string[]; readonly modes: readonly string[] };
  };
  readonly settings: Readonly<Record<string, unknown>>;
  readonly stats: {
    readonly requests: number;
    readonly rateLimited: number;
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    readonly operations: Readonly<Record<string, OperationCoverage>>;
  };
  readonly results: readonly RuleResult[];
  readonly created: readonly CreatedResource[];
  readonly skippedGroups: readonly { readonly suite: string; readonly group: string; readonly reason: string }[];
  /** Harness errors (not contract violations): a suite that crashed, say. */
  readonly errors: readonly string[];
  /** How to replay this run. */
  readonly replay: string;
  /** The signal that interrupted the run, if one did: rules left without evidence are skipped. */
  readonly interrupted?: 'SIGINT' | 'SIGTERM';
}
