import type { RunConfig } from '../settings/config.ts';
import type { Plan } from '../engine/plan.ts';
import { putBacksBeyond } from '../core/probe-types.ts';
import { preflightPlan } from '../engine/preflight-plan.ts';

/** Renders a run's plan for `--dry-run`: every group, its class and request count, and the totals per class. */
export function planText(plan: Plan, config: RunConfig): string {
  const lines = [
    `Plan (dry run: nothing is sent). Seed ${config.seed}; ${plan.runs} example(s) per property; ` +
      `${config.rules.length} rule(s) selected.`,
  ];
  if (config.shard) {
    const suites = [...new Set(plan.groups.map((g) => g.suite))];
    lines.push(
      `Shard ${config.shard.index}/${config.shard.count}: the ${suites.join(', ')} suite(s), whole; the ` +
        'other shards run the rest.',
    );
  }
  lines.push('');
  const width = Math.max(...plan.groups.map((g) => `${g.suite} / ${g.group}`.length));
  for (const group of plan.groups) {
    const name = `${group.suite} / ${group.group}`.padEnd(width);
    lines.push(
      group.skipped
        ? `  - ${name}  ${group.klass.padEnd(10)}  skipped: ${group.skipped}`
        : `  ${String(group.requests).padStart(4)} ${name}  ${group.klass.padEnd(10)}  ${group.operations.join(', ')}`,
    );
  }
  const byClass = ['read', 'write', 'disruptive'].map(
    (klass) => `${klass} ${plan.groups.filter((g) => g.klass === klass).reduce((n, g) => n + g.requests, 0)}`,
  );
  const kept = plan.reserved > 0 ? `, ${plan.reserved} of them kept for the preflight` : '';
  const budget = config.maxRequests ? `; --max-requests ${config.maxRequests}${kept}` : '';
  lines.push('', `Total: ${plan.total} request(s) (${byClass.join(', ')})${budget}.`);
  const beyond = putBacksBeyond(plan.putBacks);
  if (beyond > 0)
    lines.push(
      `Kept for put-backs: ${beyond} request(s) beyond the total, sent only when the target takes a change it must ` +
        `refuse; the whole plan fits in --max-requests ${plan.total + beyond + plan.reserved}.`,
    );
  const preflight = preflightPlan(config);
  if (preflight) lines.push(preflight);
  if (plan.warning) lines.push(`Warning: ${plan.warning}`);
  return lines.join('\n');
}
