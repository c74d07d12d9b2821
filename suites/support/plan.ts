import type { RunConfig } from '../../core/config.ts';
import { PROBE_CLASSES, type ProbeClass } from '../../core/probe.ts';
import { concerns, type Rule } from '../../core/rule.ts';
import type { Operation } from '../../core/spec.ts';
import { RULES } from '../../rules/index.ts';
import type { ProbeGroup, SuiteDefinition } from './suite-types.ts';

/** What the planner needs to know of an operation. */
export type OperationOf = (operationId: string) => Pick<Operation, 'api' | 'klass' | 'operationId' | 'envelope'>;

/** Why a probe group (or part of it) did not run, and whether that was the user's choice. */
export interface GroupSkip {
  readonly group: string;
  readonly operations: readonly string[];
  /** The rule parts it would have fed (`rule` or `rule#part`); absent: every rule on its operations. */
  readonly feeds?: readonly string[];
  readonly reason: string;
  /** True when the user chose it (rule selection, `--allow`, an API left out); false when a rule could not be judged. */
  readonly byChoice: boolean;
}

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

/** The class of a group: the riskiest class among the operations it sends to. */
export function groupClass(group: ProbeGroup, operationOf: OperationOf): ProbeClass {
  return group.operations.map((id) => operationOf(id).klass).reduce((a, b) => (PROBE_CLASSES.indexOf(b) > PROBE_CLASSES.indexOf(a) ? b : a), 'read');
}

/** True when the group gives evidence for the rule: it names the rule in `feeds`, or the rule has no parts and concerns one of its operations. */
export function groupFeeds(group: ProbeGroup, rule: Rule, operationOf: OperationOf): boolean {
  if (rule.parts) return (group.feeds ?? []).some((entry) => entry.split('#')[0] === rule.id);
  return group.operations.some((id) => concerns(rule, operationOf(id)));
}

/** The names of a suite's groups that feed a selected rule, with the groups they run after. */
export function selectedGroups(config: RunConfig, suite: SuiteDefinition, operationOf: OperationOf): ReadonlySet<string> {
  const rules = RULES.filter((rule) => config.rules.includes(rule.id));
  const selected = new Set(suite.groups.filter((group) => rules.some((rule) => groupFeeds(group, rule, operationOf))).map((group) => group.name));
  const byName = new Map(suite.groups.map((group) => [group.name, group]));
  const pending = [...selected];
  while (pending.length > 0) {
    const name = pending.pop()!;
    for (const dependency of byName.get(name)?.after ?? []) {
      if (!byName.has(dependency)) throw new Error(`${suite.name} / ${name} runs after an unknown group, ${dependency}`);
      if (!selected.has(dependency)) {
        selected.add(dependency);
        pending.push(dependency);
      }
    }
  }
  return selected;
}

/** Why a group cannot run with these settings: its API is not under test, it feeds no selected rule, its class is not allowed, or a setting it needs is missing. */
export function groupSkip(config: RunConfig, group: ProbeGroup, operationOf: OperationOf, selected: ReadonlySet<string>): GroupSkip | undefined {
  const skip = (reason: string, byChoice: boolean): GroupSkip => ({ group: group.name, operations: group.operations, ...(group.feeds ? { feeds: group.feeds } : {}), reason, byChoice });
  for (const operationId of group.operations) {
    const { api } = operationOf(operationId);
    if (!config[api] && !config.reference) return skip(`the ${api} API is not under test: ${config.unconfigured[api] ?? 'not configured'}`, true);
  }
  if (!selected.has(group.name)) return skip('it feeds no selected rule (--rules / --skip-rules)', true);
  const klass = groupClass(group, operationOf);
  if (!config.allow.includes(klass)) return skip(`probes of class ${klass} are not allowed (--allow ${config.allow.join(',')})`, true);
  const missing = group.requires?.(config);
  if (missing) return skip(missing, false);
  return undefined;
}

/** Plans a run: every group with its class and request count, and the most examples per property that fit in `--max-requests`. */
export function planRun(config: RunConfig, suites: readonly SuiteDefinition[], operationOf: OperationOf): Plan {
  const planFor = (runs: number): PlannedGroup[] =>
    suites.flatMap((suite) => {
      const selected = selectedGroups(config, suite, operationOf);
      return suite.groups.map((group) => {
        const skipped = groupSkip(config, group, operationOf, selected)?.reason;
        return {
          suite: suite.name,
          group: group.name,
          klass: groupClass(group, operationOf),
          operations: group.operations,
          requests: skipped ? 0 : group.estimate(runs),
          ...(skipped ? { skipped } : {}),
        };
      });
    });
  const total = (groups: readonly PlannedGroup[]): number => groups.reduce((n, g) => n + g.requests, 0);
  let runs = config.runs;
  let groups = planFor(runs);
  while (config.maxRequests !== undefined && total(groups) > config.maxRequests && runs > 1) {
    runs -= 1;
    groups = planFor(runs);
  }
  const warning =
    config.maxRequests !== undefined && total(groups) > config.maxRequests
      ? `--max-requests ${config.maxRequests} is below the ${total(groups)} requests that one example per property needs: the run stops at ${config.maxRequests}, and rules probed last are skipped.`
      : undefined;
  return { runs, groups, total: total(groups), ...(warning ? { warning } : {}) };
}
