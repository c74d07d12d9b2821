import type { RunConfig } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';

/**
 * The command that replays a run (narrowed to one rule when given): its seed, runs, embedded-target faults and
 * modes, its rule selection, and every setting that bounds or restricts it (probe classes, rate, concurrency,
 * request count, time), so that a replay is never less restricted than the run. It holds no target setting.
 */
export function replayCommand(config: RunConfig, rule?: string): string {
  const parts = ['npx conformance', `--seed ${config.seed}`];
  if (config.runs !== undefined) parts.push(`--runs ${config.runs}`);
  for (const fault of config.reference?.faults ?? []) parts.push(`--reference-fault ${fault}`);
  for (const mode of config.reference?.modes ?? []) parts.push(`--reference-mode ${mode}`);
  parts.push(...limitFlags(config));
  if (rule) parts.push(`--rules ${rule}`);
  else parts.push(...selectionFlags(config));
  return parts.join(' ');
}

/** The flags of every limit that differs from its default. */
function limitFlags(config: RunConfig): string[] {
  const flags: string[] = [];
  // The classes given are named again: a replay elsewhere (the embedded target's default is every class) keeps them.
  const allowByDefault = config.reference ? DEFAULTS.allowOnReference : DEFAULTS.allow;
  if (config.allowFrom.given || config.allow.join(',') !== allowByDefault.join(','))
    flags.push(`--allow ${config.allow.join(',')}`);
  if (config.maxRps !== DEFAULTS.maxRps) flags.push(`--max-rps ${config.maxRps}`);
  if (config.concurrency !== DEFAULTS.concurrency) flags.push(`--concurrency ${config.concurrency}`);
  if (config.maxRequests !== undefined) flags.push(`--max-requests ${config.maxRequests}`);
  if (config.timeoutMs !== DEFAULTS.timeoutMs) flags.push(`--timeout-ms ${config.timeoutMs}`);
  if (config.budgetMs !== DEFAULTS.budgetMs) flags.push(`--budget-ms ${config.budgetMs}`);
  if (config.maxResponseBytes !== DEFAULTS.maxResponseBytes)
    flags.push(`--max-response-bytes ${config.maxResponseBytes}`);
  return flags;
}

/** The run's rule selection as the user gave it. */
function selectionFlags(config: RunConfig): string[] {
  const flags: string[] = [];
  if (config.selection?.rules) flags.push(`--rules ${config.selection.rules.join(',')}`);
  if (config.selection?.skipRules) flags.push(`--skip-rules ${config.selection.skipRules.join(',')}`);
  return flags;
}
