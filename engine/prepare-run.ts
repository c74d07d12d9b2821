import { type RunConfig, withRuns } from '../settings/config.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { planRun, type Plan } from './plan.ts';
import { preflightRequestCount } from './preflight-plan.ts';
import type { ConfirmingWrite, SuiteDefinition } from './suite-types.ts';
import type { PreparedRun, RunSettings } from '../run/run-settings.ts';
import type { Redactor } from '../secrets/redaction.ts';

/** The suites a run is made of, as factories of fresh definitions (`suites/index.ts` `SUITES`, passed in). */
export type SuiteFactories = readonly (() => SuiteDefinition)[];

/**
 * Prepares a run, the one way for the command's run thread, `--dry-run` and the vitest entry: plans it (the
 * examples per property that fit in `--max-requests`), and for a configured target runs the preflight, whose
 * HarnessError stops the run before any probe. A dry run ends with its plan; the embedded target has no preflight.
 * `redactor`: the thread's one redactor, for what the preflight says of an answer.
 */
export async function prepareRun(
  settings: RunSettings,
  specs: Specs,
  suites: SuiteFactories,
  redactor?: Redactor,
): Promise<PreparedRun & { readonly plan: Plan }> {
  const plan = runPlan(settings.config, specs, suites);
  const config = withRuns(settings.config, plan.runs);
  const planned = { ...settings, config, plan };
  if (config.dryRun || config.reference) return planned;
  // undici loads with the preflight, for a configured target only.
  const { preflight } = await import('./preflight.ts');
  return { ...planned, preflight: await preflight(config, specs, redactor, confirmingWrites(plan, suites)) };
}

/**
 * The suites' confirming writes of the operations the plan sends (a group that runs sends one): the preflight sends
 * none the run would not send anyway, nor any that `--allow` leaves out.
 */
function confirmingWrites(plan: Plan, suites: SuiteFactories): ConfirmingWrite[] {
  const sent = new Set(plan.groups.filter((group) => !group.skipped).flatMap((group) => group.operations));
  return suites.flatMap((suite) => suite().confirmingWrites ?? []).filter((write) => sent.has(write.operationId));
}

/** The run's plan: every suite's groups under the settings, the preflight's GETs reserved within `--max-requests`. */
function runPlan(config: RunConfig, specs: Specs, suites: SuiteFactories): Plan {
  return planRun(
    config,
    suites.map((suite) => suite()),
    (operationId) => operationById(specs, operationId),
    preflightRequestCount(config),
  );
}
