import type { RunConfig } from '../../core/config.ts';
import type { ProbeClass } from '../../core/probe.ts';
import type { ProbeGroup, SuiteDefinition } from './suite-types.ts';

/** One group of the plan: what it would send, or why it will not run. */
export interface PlannedGroup {
  readonly suite: string;
  readonly group: string;
  readonly klass: ProbeClass;
  readonly operations: readonly string[];
  readonly requests: number;
  readonly skipped?: string;
}

/** What a run will send: its groups, the examples per property chosen, and the totals. */
export interface Plan {
  readonly runs: number;
  readonly groups: readonly PlannedGroup[];
  readonly total: number;
  /** Set when `--max-requests` is below what even one example per property needs. */
  readonly warning?: string;
}

/** Why a group cannot run with these settings (its API is not configured, its class is not allowed, a setting it needs is missing). */
export function groupSkipReason(config: RunConfig, group: ProbeGroup, apiOf: (operationId: string) => 'management' | 'alerts'): string | undefined {
  for (const operationId of group.operations) {
    const api = apiOf(operationId);
    if (!config[api] && !config.reference) return `the ${api} API is not under test: ${config.unconfigured[api] ?? 'not configured'}`;
  }
  const missing = group.requires?.(config);
  if (missing) return missing;
  if (!config.allow.includes(group.klass)) return `probes of class ${group.klass} are not allowed (--allow ${config.allow.join(',')})`;
  return undefined;
}

/** Plans a run: every group with its request count, and the most examples per property that fit in `--max-requests`. */
export function planRun(config: RunConfig, suites: readonly SuiteDefinition[], apiOf: (operationId: string) => 'management' | 'alerts'): Plan {
  const planFor = (runs: number): PlannedGroup[] => suites.flatMap((suite) => suite.groups.map((group) => {
    const skipped = groupSkipReason(config, group, apiOf);
    return { suite: suite.name, group: group.name, klass: group.klass, operations: group.operations, requests: skipped ? 0 : group.estimate(runs), ...(skipped ? { skipped } : {}) };
  }));
  const total = (groups: readonly PlannedGroup[]): number => groups.reduce((n, g) => n + g.requests, 0);
  let runs = config.runs;
  let groups = planFor(runs);
  while (config.maxRequests !== undefined && total(groups) > config.maxRequests && runs > 1) {
    runs -= 1;
    groups = planFor(runs);
  }
  const warning = config.maxRequests !== undefined && total(groups) > config.maxRequests
    ? `--max-requests ${config.maxRequests} is below the ${total(groups)} requests that one example per property needs: the run stops at ${config.maxRequests}, and rules probed last are skipped.`
    : undefined;
  return { runs, groups, total: total(groups), ...(warning ? { warning } : {}) };
}
