import type { RunConfig } from './config.ts';

/** The command that replays a run (narrowed to one rule when given): its seed, runs and embedded-target faults. */
export function replayCommand(config: RunConfig, rule?: string): string {
  const parts = ['npx conformance', `--seed ${config.seed}`];
  if (config.runs !== undefined) parts.push(`--runs ${config.runs}`);
  for (const fault of config.reference?.faults ?? []) parts.push(`--reference-fault ${fault}`);
  for (const mode of config.reference?.modes ?? []) parts.push(`--reference-mode ${mode}`);
  if (rule) parts.push(`--rules ${rule}`);
  return parts.join(' ');
}
