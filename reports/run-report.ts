import { reportedTargets } from '../apis/index.ts';
import { coverageRows, mergeCoverage } from '../evidence/coverage.ts';
import type { OperationCoverage } from '../evidence/ledger.ts';
import type { RunConfig } from '../settings/config.ts';
import { replayCommand } from '../evidence/replay.ts';
import type { Collected, RunReport } from '../run/run-report-types.ts';
import { settingErrors } from './setting-errors.ts';
import { createdList } from './created-words.ts';

/** What a report says about its run beside the verdicts: when, against what, with which settings, how to replay it. */
export type RunHeader = Pick<RunReport, 'seed' | 'startedAt' | 'durationMs' | 'target' | 'settings' | 'replay'>;

/** Assembles the run's report from what the suites produced and the run's settings; holds no secret. */
export function buildRunReport(
  config: RunConfig,
  collected: Collected,
  startedAt: Date,
  durationMs: number,
): RunReport {
  return assembleRunReport(runHeader(config, startedAt, durationMs), collected, config.rules);
}

/** The header of a run's report, from its settings; holds no secret. */
export function runHeader(config: RunConfig, startedAt: Date, durationMs: number): RunHeader {
  return {
    seed: config.seed,
    startedAt: startedAt.toISOString(),
    durationMs,
    target: { ...reportedTargets(config), ...(config.reference ? { reference: config.reference } : {}) },
    settings: {
      rules: config.rules.length,
      allow: config.allow,
      runs: config.runs,
      timeoutMs: config.timeoutMs,
      budgetMs: config.budgetMs,
      maxRps: config.maxRps,
      concurrency: config.concurrency,
      maxRequests: config.maxRequests ?? null,
      maxResponseBytes: config.maxResponseBytes,
      shard: config.shard ? `${config.shard.index}/${config.shard.count}` : null,
    },
    replay: replayCommand(config),
  };
}

/**
 * The report of a run that a signal stopped before it finished: `interrupted`, whatever its verdicts reached (its
 * failures stay listed), so that no report of it reads as passed.
 */
export function interruptedReport<T extends RunReport>(report: T, signal: 'SIGINT' | 'SIGTERM'): T {
  return { ...report, outcome: 'interrupted', interrupted: signal };
}

/** Assembles a report from its header and what the suites produced, results ordered by `ruleOrder`. */
export function assembleRunReport(header: RunHeader, collected: Collected, ruleOrder: readonly string[]): RunReport {
  const { suites } = collected;
  const errors = [...collected.errors, ...settingErrors(suites)];
  const order = (rule: string): number => (ruleOrder.includes(rule) ? ruleOrder.indexOf(rule) : ruleOrder.length);
  const results = [...collected.results].sort((a, b) => order(a.rule) - order(b.rule));
  const count = (outcome: string): number => results.filter((r) => r.outcome === outcome).length;
  const merged: Record<string, OperationCoverage> = {};
  for (const suite of suites) mergeCoverage(merged, suite.coverage);
  // Only the operations the run sent to: a group left out (an API out of the run, say) notes its operations' coverage.
  const operations: RunReport['stats']['operations'] = Object.fromEntries(
    Object.entries(merged)
      .filter(([, c]) => c.requests > 0)
      .map(([operation, c]) => [operation, { requests: c.requests, statuses: c.statuses }]),
  );
  const failed = count('failed');
  const { seed, startedAt, durationMs, target, settings, replay } = header;
  return {
    outcome: errors.length > 0 ? 'error' : failed > 0 ? 'failed' : 'passed',
    seed,
    startedAt,
    durationMs,
    target,
    settings,
    stats: {
      requests: suites.reduce((n, s) => n + s.requests, 0),
      rateLimited: suites.reduce((n, s) => n + s.rateLimited, 0),
      passed: count('passed'),
      failed,
      skipped: count('skipped'),
      skippedByChoice: results.filter((r) => r.outcome === 'skipped' && r.skipKind === 'by-choice').length,
      notJudged: results.filter((r) => r.outcome === 'skipped' && r.skipKind !== 'by-choice').length,
      operations,
    },
    results,
    created: createdList(suites.flatMap((s) => s.created)),
    incidents: suites.flatMap((s) => s.incidents ?? []),
    skippedGroups: suites.flatMap((s) => s.skippedGroups.map((g) => ({ suite: s.suite, ...g }))),
    errors,
    replay,
    coverage: coverageRows(merged, results),
  };
}
