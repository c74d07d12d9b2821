import type { RunConfig, Shard } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { HarnessError } from '../core/errors.ts';
import { PROBE_CLASSES, type ProbeClass, type PutBacks, putBacksBeyond } from '../core/probe-types.ts';
import { concerns, type Rule } from '../rule-model/rule.ts';
import type { Operation } from '../spec/spec.ts';
import { RULES } from '../rules/index.ts';
import type { ProbeGroup, SuiteDefinition } from './suite-types.ts';

/** What the planner needs to know of an operation. */
export type OperationOf = (
  operationId: string,
) => Pick<
  Operation,
  | 'api'
  | 'klass'
  | 'operationId'
  | 'envelope'
  | 'path'
  | 'pathParams'
  | 'uuidPathParams'
  | 'queryParams'
  | 'requestSchema'
>;

/** Why a probe group (or part of it) did not run, and whether that was the user's choice. */
export interface GroupSkip {
  readonly group: string;
  readonly operations: readonly string[];
  /** The rule parts it would have fed (`rule` or `rule#part`); absent: every rule on its operations. */
  readonly feeds?: readonly string[];
  readonly reason: string;
  /**
   * True when the user chose it (rule selection, `--allow`, an API left out); false when a rule could not be judged.
   */
  readonly byChoice: boolean;
}

/** One group of the plan: what it would send, or why it will not run. */
export interface PlannedGroup {
  readonly suite: string;
  readonly group: string;
  readonly klass: ProbeClass;
  readonly operations: readonly string[];
  readonly requests: number;
  /** The put-backs it may send, when it runs and may send any. */
  readonly putBacks?: PutBacks;
  readonly skipped?: string;
}

/** What a run will send: its groups, the examples per property chosen, and the totals. */
export interface Plan {
  readonly runs: number;
  readonly groups: readonly PlannedGroup[];
  /** What a run against a target that keeps the contract sends: every group's estimate. */
  readonly total: number;
  /**
   * The put-backs its groups may send: with `--max-requests`, `most` are kept out of what the other requests may spend,
   * so the plan fits when `total` and the `most - estimated` beyond it do.
   */
  readonly putBacks: PutBacks;
  /** Requests of `--max-requests` kept for the preflight's GETs, which count against it too. */
  readonly reserved: number;
  /** Set when `--max-requests` is below what even one example per property needs. */
  readonly warning?: string;
}

/** The class of a group: the riskiest class among the operations it sends to. */
export function groupClass(group: ProbeGroup, operationOf: OperationOf): ProbeClass {
  return group.operations
    .map((id) => operationOf(id).klass)
    .reduce((a, b) => (PROBE_CLASSES.indexOf(b) > PROBE_CLASSES.indexOf(a) ? b : a), 'read');
}

/**
 * True when the group gives evidence for the rule: it names the rule in `feeds` (or what another suite's group needs to
 * judge it: the keys it creates), or the rule has no parts and concerns one of its operations.
 */
export function groupFeeds(group: ProbeGroup, rule: Rule, operationOf: OperationOf): boolean {
  const named = (group.feeds ?? []).some((entry) => entry.split('#')[0] === rule.id);
  if (rule.parts) return named;
  return named || group.operations.some((id) => concerns(rule, operationOf(id)));
}

/** The names of a suite's groups that feed a selected rule, with the groups they run after. */
export function selectedGroups(
  config: RunConfig,
  suite: SuiteDefinition,
  operationOf: OperationOf,
): ReadonlySet<string> {
  const rules = RULES.filter((rule) => config.rules.includes(rule.id));
  const selected = new Set(
    suite.groups
      .filter((group) => rules.some((rule) => groupFeeds(group, rule, operationOf)))
      .map((group) => group.name),
  );
  const byName = new Map(suite.groups.map((group) => [group.name, group]));
  const pending = [...selected];
  while (pending.length > 0) {
    const name = pending.pop()!;
    for (const dependency of byName.get(name)?.after ?? []) {
      if (!byName.has(dependency))
        throw new Error(`${suite.name} / ${name} runs after an unknown group, ${dependency}`);
      if (!selected.has(dependency)) {
        selected.add(dependency);
        pending.push(dependency);
      }
    }
  }
  return selected;
}

/**
 * Why a group cannot run with these settings: its API is not under test, it feeds no selected rule, its class is not
 * allowed, or a setting it needs is missing.
 */
export function groupSkip(
  config: RunConfig,
  group: ProbeGroup,
  operationOf: OperationOf,
  selected: ReadonlySet<string>,
): GroupSkip | undefined {
  const skip = (reason: string, byChoice: boolean): GroupSkip => ({
    group: group.name,
    operations: group.operations,
    ...(group.feeds ? { feeds: group.feeds } : {}),
    reason,
    byChoice,
  });
  for (const operationId of group.operations) {
    const { api } = operationOf(operationId);
    if ((!config[api] && !config.reference) || !config.apis.includes(api))
      return skip(`the ${api} API is not under test: ${config.unconfigured[api] ?? 'not configured'}`, true);
  }
  if (!selected.has(group.name)) return skip('it feeds no selected rule (--rules / --skip-rules)', true);
  const klass = groupClass(group, operationOf);
  if (!config.allow.includes(klass)) return skip(classLeftOut(config, klass), true);
  // A setting the user left out (BACKUP_ID, another tenant's credentials) skips what needs it by their choice.
  const missing = group.requires?.(config);
  if (missing) return skip(missing, true);
  return undefined;
}

/** Why probes of a class do not run: the classes given leave it out, or the default for a configured target does. */
export function classLeftOut(config: RunConfig, klass: string): string {
  const { given, name } = config.allowFrom;
  return given
    ? `probes of class ${klass} are not allowed (${name} ${config.allow.join(',')})`
    : `probes of class ${klass} are left out by default against a configured target (name it in ${name} to run them)`;
}

/**
 * Plans a run (`reserved`: requests of `--max-requests` the preflight may send first): every group of the run's suites
 * (with `--shard`, of the shard's part) with its class and request count, and the most examples per property with which
 * every part fits in `--max-requests`, so that every shard picks the same.
 */
export function planRun(
  config: RunConfig,
  suites: readonly SuiteDefinition[],
  operationOf: OperationOf,
  reserved = 0,
): Plan {
  // The run's own part first: a refused --shard is named as given.
  const own = shardSuites(suites, config.shard);
  const parts = config.shard
    ? Array.from({ length: config.shard.count }, (_, i) =>
        shardSuites(suites, { index: i + 1, count: config.shard!.count }),
      )
    : [suites];
  const planFor = (part: readonly SuiteDefinition[], runs: number): PlannedGroup[] =>
    part.flatMap((suite) => {
      const selected = selectedGroups(config, suite, operationOf);
      return suite.groups.map((group) => {
        const skipped = groupSkip(config, group, operationOf, selected)?.reason;
        return {
          suite: suite.name,
          group: group.name,
          klass: groupClass(group, operationOf),
          operations: group.operations,
          requests: skipped ? 0 : group.estimate(runs, operationOf),
          ...(skipped ? { skipped } : group.putBacks ? { putBacks: group.putBacks } : {}),
        };
      });
    });
  const total = (groups: readonly PlannedGroup[]): number => groups.reduce((n, g) => n + g.requests, 0);
  /** What `--max-requests` must hold of a part: its total and the put-backs beyond it. */
  const needed = (groups: readonly PlannedGroup[]): number => total(groups) + putBacksBeyond(putBacksOf(groups));
  const largest = (runs: number): number => Math.max(...parts.map((part) => needed(planFor(part, runs))));
  const limit = config.maxRequests === undefined ? undefined : Math.max(0, config.maxRequests - reserved);
  let runs = config.runs;
  while (limit !== undefined && largest(runs) > limit && runs > 1) runs -= 1;
  const groups = planFor(own, runs);
  const putBacks = putBacksOf(groups);
  const kept = putBacksBeyond(putBacks) > 0 ? ` and the ${putBacksBeyond(putBacks)} put-back(s) kept beyond them` : '';
  const preflight = reserved > 0 ? ` (and the preflight's ${reserved} GET${reserved === 1 ? '' : 's'})` : '';
  const warning =
    limit !== undefined && needed(groups) > limit
      ? `--max-requests ${config.maxRequests} is below the ${total(groups)} requests that one example per ` +
        `property needs${kept}${preflight}: the run stops at ${config.maxRequests}, and rules probed last are ` +
        'skipped.'
      : undefined;
  return { runs, groups, total: total(groups), putBacks, reserved, ...(warning ? { warning } : {}) };
}

/** The put-backs of the groups that run, added up. */
function putBacksOf(groups: readonly PlannedGroup[]): PutBacks {
  return groups.reduce(
    (sum, g) => ({ most: sum.most + (g.putBacks?.most ?? 0), estimated: sum.estimated + (g.putBacks?.estimated ?? 0) }),
    { most: 0, estimated: 0 },
  );
}

/**
 * A suite's size for the split into shards: the requests all its groups send with the default examples per property.
 */
function suiteSize(suite: SuiteDefinition): number {
  return suite.groups.reduce((n, group) => n + group.estimate(DEFAULTS.runs), 0);
}

/**
 * The suites of one shard, in their order: whole suites, largest first, each to the part with the fewest requests so
 * far (the first such part on a tie). Sizes are fixed (every group, default examples per property), so the split
 * depends on `n` alone and every shard of a run computes the same one.
 */
export function shardSuites<T extends SuiteDefinition>(suites: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...suites];
  if (shard.count > suites.length) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `--shard ${shard.index}/${shard.count}: a shard runs whole suites, and the run has ${suites.length}: ` +
        `give --shard i/n with n at most ${suites.length}.`,
    );
  }
  const loads = Array.from({ length: shard.count }, () => 0);
  const partOf = new Map<T, number>();
  const bySize = suites
    .map((suite, order) => ({ suite, order, size: suiteSize(suite) }))
    .sort((a, b) => b.size - a.size || a.order - b.order);
  for (const { suite, size } of bySize) {
    const part = loads.indexOf(Math.min(...loads));
    loads[part] = (loads[part] ?? 0) + size;
    partOf.set(suite, part + 1);
  }
  return suites.filter((suite) => partOf.get(suite) === shard.index);
}
