import { resolveConfig, withRuns, withTargets, type RunConfig } from '../core/config.ts';
import { HarnessError } from '../core/errors.ts';
import { loadSpecs, operationById, type Specs } from '../core/spec.ts';
import { startReference } from '../reference/server.ts';
import { acceptedFailures, loadBaseline } from '../reports/baseline-run.ts';
import { RULE_IDS } from '../rules/index.ts';
import { SUITES } from '../suites/index.ts';
import type { DeferredRun, PreparedRun } from '../suites/support/conformance-suite.ts';
import { planRun } from '../suites/support/plan.ts';
import { preflight } from './preflight.ts';
import { preflightRequestCount } from './preflight-plan.ts';
import { commandInputs, type ConformanceSettings } from './run-conformance.ts';

/** Settings of the command that a run inside a team's vitest has no use for, and why. */
const NOT_UNDER_VITEST: Readonly<Partial<Record<keyof ConformanceSettings, string>>> = Object.freeze({
  reportDir: "the tests' reports are your vitest reporters' (junit, json, ...)",
  dryRun: 'to see the plan, run `npx conformance --dry-run` with the same settings',
  updateBaseline: 'write the baseline with `npx conformance --baseline FILE --update-baseline`',
  verbose: 'every verdict is a test of your vitest run',
  requireJudged: 'a rule not judged is a skipped test, which your CI can count; or run `npx conformance --require-judged`',
});

/**
 * A run for a team's own vitest test file: the settings resolved now, by the command's resolver (a mistake throws the
 * same HarnessError as `runConformance`), and, when the groups are about to run, the specs loaded, the plan made, and the
 * embedded reference target started (no target setting) or the preflight passed (a target of the team's).
 */
export async function deferredRun(settings: ConformanceSettings): Promise<DeferredRun> {
  for (const [key, why] of Object.entries(NOT_UNDER_VITEST)) {
    if (settings[key as keyof ConformanceSettings] !== undefined) {
      throw new HarnessError('CONFIG_INVALID', `conformanceSuites: the setting ${key} has no meaning in a vitest test file: ${why}. Leave it out.`);
    }
  }
  const { argv, env } = commandInputs(settings);
  const config = resolveConfig(argv, env, RULE_IDS);
  const specs = await loadSpecs();
  return { config, specs, prepare: () => prepare(config, specs) };
}

async function prepare(resolved: RunConfig, specs: Specs): Promise<PreparedRun> {
  const baseline = resolved.baseline
    ? await loadBaseline(
        resolved.baseline,
        false,
        RULE_IDS,
        specs.operations.map((o) => o.key),
      )
    : undefined;
  const plan = planRun(
    resolved,
    SUITES.map((suite) => suite()),
    (operationId) => operationById(specs, operationId),
    preflightRequestCount(resolved),
  );
  let config = withRuns(resolved, plan.runs);
  const knownFailures = baseline ? acceptedFailures(baseline, new Date()) : undefined;
  const common = { specs, plannedRequests: plan.total, session: { channel: false }, ...(knownFailures ? { knownFailures } : {}) } as const;
  if (!config.reference) {
    const checked = await preflight(config, specs);
    return { config, ...common, preflightRequests: checked.requests };
  }
  const target = await startReference({ faults: config.reference.faults, modes: config.reference.modes }).catch((error: unknown) => {
    throw new HarnessError('REFERENCE_FAILED', `The embedded reference target did not start: ${(error as Error).message}`, { cause: error });
  });
  config = withTargets(config, {
    management: {
      baseUrl: target.managementUrl,
      keyId: target.managementKeyId,
      keySecret: target.managementKeySecret,
      organizationId: target.organizationId,
      serviceId: target.serviceId,
      backupId: target.backupId,
    },
    alerts: { baseUrl: target.alertsUrl, token: target.alertsToken },
  });
  return { config, ...common, close: () => target.close() };
}
