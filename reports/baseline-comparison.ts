import type { Outcome, RuleResult } from '../evidence/finding.ts';
import type { RunOutcome, RunReport } from '../run/run-report-types.ts';
import type { Baseline, BaselineEntry } from './baseline-file.ts';

/** Reason given to entries that `--update-baseline` adds. */
export const ADDED_REASON = 'added by --update-baseline';

/** A failed result, named by rule and operation. */
export interface FailureRef {
  readonly rule: string;
  readonly operation: string;
  readonly operationId?: string;
  readonly message: string;
}

/** How a run compares with a baseline of known failures. */
export interface BaselineSummary {
  readonly file: string;
  /** Failures the baseline accepts (entry not expired). */
  readonly known: readonly BaselineEntry[];
  /** Failures the baseline does not list: these fail the run. */
  readonly new: readonly FailureRef[];
  /** Entries past their `expires` date: these fail the run; `now` is what the rule did in this run. */
  readonly expired: readonly (BaselineEntry & { readonly now: Outcome | 'not run' })[];
  /** Entries whose rule passed on the operation: stale, to be removed. */
  readonly unexpectedPasses: readonly BaselineEntry[];
  /** The file did not exist: no failure is known yet, each counts as new (`--update-baseline` writes it). */
  readonly absent?: true;
}

/** A run report with its baseline comparison, when a baseline was given. */
export type BaselinedRunReport = RunReport & { readonly baseline?: BaselineSummary };

/**
 * Compares a run's results with a baseline on `today` (`YYYY-MM-DD`, UTC); an entry is valid through its `expires` day.
 * Entries match on rule and `METHOD /path`; each is named with the result's operationId where its file has none.
 */
export function compareWithBaseline(
  results: readonly RuleResult[],
  baseline: Baseline,
  file: string,
  today: string,
): BaselineSummary {
  const byKey = new Map(results.map((r) => [keyOf(r), r]));
  const listed = new Set(baseline.entries.map(keyOf));
  const expired = baseline.entries.filter((e) => isExpired(e, today));
  const expiredKeys = new Set(expired.map(keyOf));
  const named = (e: BaselineEntry): BaselineEntry => {
    const operationId = e.operationId ?? byKey.get(keyOf(e))?.operationId;
    return operationId === undefined
      ? e
      : {
          rule: e.rule,
          operation: e.operation,
          operationId,
          reason: e.reason,
          ...(e.expires === undefined ? {} : { expires: e.expires }),
        };
  };
  return {
    file,
    known: baseline.entries
      .filter((e) => !expiredKeys.has(keyOf(e)) && byKey.get(keyOf(e))?.outcome === 'failed')
      .map(named),
    new: results
      .filter((r) => r.outcome === 'failed' && !listed.has(keyOf(r)))
      .map(({ rule, operation, operationId, message }) => ({
        rule,
        operation,
        ...(operationId ? { operationId } : {}),
        message,
      })),
    expired: expired.map((e) => ({ ...named(e), now: byKey.get(keyOf(e))?.outcome ?? 'not run' })),
    unexpectedPasses: baseline.entries.filter((e) => byKey.get(keyOf(e))?.outcome === 'passed').map(named),
  };
}

/** The entries still valid on `today` (`YYYY-MM-DD`, UTC): an entry is valid through its `expires` day. */
export function unexpiredEntries(baseline: Baseline, today: string): BaselineEntry[] {
  return baseline.entries.filter((e) => !isExpired(e, today));
}

function isExpired(entry: BaselineEntry, today: string): boolean {
  return entry.expires !== undefined && entry.expires < today;
}

/** The report with the baseline applied: the run fails only on new failures and expired entries. */
export function applyBaseline(report: RunReport, summary: BaselineSummary): BaselinedRunReport {
  const outcome: RunOutcome =
    report.outcome === 'error' || report.outcome === 'interrupted'
      ? report.outcome
      : summary.new.length > 0 || summary.expired.length > 0
        ? 'failed'
        : 'passed';
  return { ...report, outcome, baseline: summary };
}

/**
 * The baseline that `--update-baseline` writes: every failure of the run, keeping the reason and expiry of
 * entries already listed; entries whose rule passed are dropped, entries not run this time are kept.
 */
export function updatedBaseline(results: readonly RuleResult[], previous: Baseline | undefined): Baseline {
  const byKey = new Map(results.map((r) => [keyOf(r), r]));
  const old = new Map((previous?.entries ?? []).map((e) => [keyOf(e), e]));
  const failures = results
    .filter((r) => r.outcome === 'failed')
    .map((r) => {
      const entry = old.get(keyOf(r)) ?? { rule: r.rule, operation: r.operation, reason: ADDED_REASON };
      return r.operationId === undefined
        ? entry
        : {
            rule: entry.rule,
            operation: entry.operation,
            operationId: r.operationId,
            reason: entry.reason,
            ...(entry.expires === undefined ? {} : { expires: entry.expires }),
          };
    });
  const notRun = (previous?.entries ?? []).filter((e) => {
    const outcome = byKey.get(keyOf(e))?.outcome;
    return outcome === undefined || outcome === 'skipped';
  });
  return { version: 1, entries: [...failures, ...notRun] };
}

function keyOf(item: { readonly rule: string; readonly operation: string }): string {
  return `${item.rule}\u0000${item.operation}`;
}
