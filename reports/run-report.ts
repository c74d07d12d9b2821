import type { RunConfig } from '../core/config.ts';
import { replayCommand } from '../core/replay.ts';
import type { RunReport } from '../core/run-report.ts';
import type { Collected } from './collect-reporter.ts';

/** Assembles the run's report from what the suites produced and the run's settings; holds no secret. */
export function buildRunReport(config: RunConfig, collected: Collected, startedAt: Date, durationMs: number): RunReport {
  const { suites, errors } = collected;
  const order = (rule: string): number => (config.rules.includes(rule) ? config.rules.indexOf(rule) : config.rules.length);
  const results = [...collected.results].sort((a, b) => order(a.rule) - order(b.rule));
  const count = (outcome: string): number => results.filter((r) => r.outcome === outcome).length;
  const operations: RunReport['stats']['operations'] = {};
  for (const suite of suites) {
    for (const [operation, coverage] of Object.entries(suite.coverage)) {
      const entry = ((operations as Record<string, { requests: number; statuses: Record<string, number> }>)[operation] ??= { requests: 0, statuses: {} });
      entry.requests += coverage.requests;
      for (const [status, n] of Object.entries(coverage.statuses)) entry.statuses[status] = (entry.statuses[status] ?? 0) + n;
    }
  }
  const failed = count('failed');
  return {
    outcome: errors.length > 0 ? 'error' : failed > 0 ? 'failed' : 'passed',
    seed: config.seed,
    startedAt: startedAt.toISOString(),
    durationMs,
    target: {
      ...(config.management ? { management: { baseUrl: config.management.baseUrl, organizationId: config.management.organizationId, serviceId: config.management.serviceId, ...(config.management.backupId ? { backupId: config.management.backupId } : {}) } } : {}),
      ...(config.alerts ? { alerts: { baseUrl: config.alerts.baseUrl, ...(config.alerts.alertId ? { alertId: config.alerts.alertId } : {}) } } : {}),
      ...(config.reference ? { reference: config.reference } : {}),
    },
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
    stats: {
      requests: suites.reduce((n, s) => n + s.requests, 0),
      rateLimited: suites.reduce((n, s) => n + s.rateLimited, 0),
      passed: count('passed'),
      failed,
      skipped: count('skipped'),
      operations,
    },
    results,
    created: suites.flatMap((s) => s.created),
    skippedGroups: suites.flatMap((s) => s.skippedGroups.map((g) => ({ suite: s.suite, ...g }))),
    errors,
    replay: replayCommand(config),
  };
}
