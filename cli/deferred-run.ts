import { resolveSettings, type RunConfig } from '../settings/config.ts';
import { HarnessError } from '../core/errors.ts';
import type { PreparedRun } from '../run/run-settings.ts';
import { loadSpecs, type Specs } from '../spec/spec.ts';
import { acceptedFailures, loadBaseline } from '../reports/baseline-run.ts';
import { RULE_IDS } from '../rules/index.ts';
import type { SuitesSource } from '../engine/run-suites.ts';
import { startEmbedded } from './embedded-target.ts';
import { prepareRun } from '../engine/prepare-run.ts';
import { SUITES } from '../suites/index.ts';
import { createRedactor, type Redactor } from '../secrets/redaction.ts';
import { createSecretRegistry, redactedNames } from '../secrets/secret-registry.ts';
import type { ConformanceSettings } from './run-conformance.ts';

/** Settings of the command that a run inside a team's vitest has no use for, and why. */
const NOT_UNDER_VITEST: Readonly<Partial<Record<keyof ConformanceSettings, string>>> = Object.freeze({
  reportDir: "the tests' reports are your vitest reporters' (junit, json, ...)",
  dryRun: 'to see the plan, run `npx conformance --dry-run` with the same settings',
  updateBaseline: 'write the baseline with `npx conformance --baseline FILE --update-baseline`',
  verbose: 'every verdict is a test of your vitest run',
  requireJudged:
    'a rule not judged is a skipped test, which your CI can count; or run `npx conformance --require-judged`',
});

/**
 * A run for a team's own vitest test file: the settings resolved now, by the one resolver (a mistake throws the
 * same HarnessError as `runConformance`, naming the key), and, when the groups are about to run, the specs loaded,
 * the plan made, and
 * the embedded reference target started (no target setting) or the preflight passed (a target of the team's).
 */
export async function deferredRun(settings: ConformanceSettings): Promise<SuitesSource> {
  for (const [key, why] of Object.entries(NOT_UNDER_VITEST)) {
    if (settings[key as keyof ConformanceSettings] !== undefined) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `conformanceSuites: the setting ${key} has no meaning in a vitest test file: ${why}. Leave it out.`,
      );
    }
  }
  const config = resolveSettings(settings, RULE_IDS);
  const specs = await loadSpecs();
  // The thread's one redactor, on the run's one registry of secrets: the preflight's and the session's.
  const redactor = createRedactor(redactedNames(specs), createSecretRegistry(config));
  return { config, specs, redactor, prepare: () => prepare(config, specs, redactor) };
}

/** The run prepared as the command prepares it; with no target set, the embedded one started in this thread. */
async function prepare(
  resolved: RunConfig,
  specs: Specs,
  redactor: Redactor,
): Promise<{ run: PreparedRun; close?(): Promise<void> }> {
  const baseline = resolved.baseline
    ? await loadBaseline(
        resolved.baseline,
        false,
        RULE_IDS,
        specs.operations.map((o) => o.key),
      )
    : undefined;
  const target = resolved.reference ? await startEmbedded(resolved) : undefined;
  const knownFailures = baseline ? acceptedFailures(baseline, new Date()) : undefined;
  if (target) redactor.secrets.addSettings(target.config);
  try {
    const run = await prepareRun(
      { config: target?.config ?? resolved, ...(knownFailures ? { knownFailures } : {}) },
      specs,
      SUITES,
      redactor,
    );
    return { run, ...(target ? { close: () => target.close() } : {}) };
  } catch (error) {
    await target?.close();
    throw error;
  }
}
