import type { ReportedTargets } from '../apis/index.ts';
import type { OperationCoverageRow } from '../evidence/coverage.ts';
import type { RuleResult } from '../evidence/finding.ts';
import type { CredentialTally } from '../evidence/credential-tally.ts';
import type { OperationCoverage } from '../evidence/ledger.ts';

/**
 * Something a write of the run did on the target (any 2xx answer to a POST, PATCH or PUT), for people to check and
 * clean up.
 */
export interface CreatedResource {
  /** `created` for a POST, `changed` for a PATCH or PUT. */
  readonly kind: 'created' | 'changed';
  /** The id the answer named, or the path's id. */
  readonly id: string;
  readonly operation: string;
  readonly note: string;
  /** How many writes did the same (see `createdList`), where more than one. */
  readonly times?: number;
}

/** What one suite reports beside its verdicts: coverage, created resources, requests. */
export interface SuiteReport {
  readonly suite: string;
  readonly coverage: Readonly<Record<string, OperationCoverage>>;
  readonly created: readonly CreatedResource[];
  /** What the run changed and could not put back (a failed put-back, a service left stopped): said first and loudly. */
  readonly incidents?: readonly string[];
  readonly requests: number;
  readonly rateLimited: number;
  readonly skippedGroups: readonly { readonly group: string; readonly reason: string }[];
  /** What the requests sent with the run's own credentials got, for the settings mistakes only a run shows. */
  readonly credentials?: CredentialTally;
}

/** A suite once its groups are through: its verdicts, its report, and the errors that kept verdicts from it. */
export interface JudgedSuite {
  readonly report: SuiteReport;
  readonly results: readonly RuleResult[];
  readonly errors: readonly string[];
}

/** What the suites of a run produced: every verdict, each suite's report, and the errors that kept verdicts away. */
export interface Collected {
  readonly results: RuleResult[];
  readonly suites: SuiteReport[];
  readonly errors: string[];
}

/**
 * Overall outcome: `error` when the harness itself could not judge, `interrupted` when a signal stopped the run
 * before it finished (never `passed`, whatever it reached).
 */
export type RunOutcome = 'passed' | 'failed' | 'interrupted' | 'error';

/** The complete, redacted result of a run: what `findings.json` holds and every report is rendered from. */
export interface RunReport {
  readonly outcome: RunOutcome;
  readonly seed: number;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Each API's base URL and ids, under the API's name, and the embedded target's faults and modes. */
  readonly target: ReportedTargets & {
    readonly reference?: { readonly faults: readonly string[]; readonly modes: readonly string[] };
  };
  readonly settings: Readonly<Record<string, unknown>>;
  readonly stats: {
    readonly requests: number;
    readonly rateLimited: number;
    readonly passed: number;
    readonly failed: number;
    readonly skipped: number;
    /** Of the skipped: by the user's choice (rule selection, `--allow`, an API left out). */
    readonly skippedByChoice: number;
    /** Of the skipped: could not be judged (budget, time, a missing resource, no evidence). */
    readonly notJudged: number;
    readonly operations: Readonly<Record<string, OperationCoverage>>;
  };
  readonly results: readonly RuleResult[];
  readonly created: readonly CreatedResource[];
  /** What the run changed and could not put back: every report says it first. */
  readonly incidents: readonly string[];
  readonly skippedGroups: readonly { readonly suite: string; readonly group: string; readonly reason: string }[];
  /** Set when `--require-judged` failed the run because selected rules could not be judged. */
  readonly gate?: string;
  /** Harness errors (not contract violations): a suite that crashed, say. */
  readonly errors: readonly string[];
  /** How to replay this run. */
  readonly replay: string;
  /** Per operation, what the run exercised, credited by judgement (absent in reports of older versions). */
  readonly coverage?: readonly OperationCoverageRow[];
  /** The signal that interrupted the run, if one did: rules left without evidence are skipped. */
  readonly interrupted?: 'SIGINT' | 'SIGTERM';
}
