import { type GivenSettings, resolveSettings } from '../settings/config.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import { RULE_IDS } from '../rules/index.ts';

/**
 * The settings of a run given from code: each flag of `conformance run` in camelCase (`--management-url` is
 * `managementUrl`), plus the credentials that the command takes from environment variables only. Omitted settings
 * take the command's defaults; with no API's URL, the embedded reference target is started and used.
 */
export type ConformanceSettings = GivenSettings;

/**
 * Settings of type `S` with no key that ConformanceSettings lacks: a misspelt key (`managmentUrl`) fails the type check
 * in a variable or a spread too, not only in an object literal.
 */
export type ExactSettings<S> = S & { readonly [K in Exclude<keyof S, keyof ConformanceSettings>]: never };

/** How a run from code ended: the command's exit code (0, 1 or 2) and, unless it was a dry run, its report. */
export interface ConformanceRun {
  readonly exitCode: number;
  readonly report?: BaselinedRunReport;
}

/** Where a run from code writes the lines the command prints; silent by default. */
export interface ConformanceOutput {
  readonly out?: (line: string) => void;
  readonly err?: (line: string) => void;
}

/**
 * Runs the harness from code, like `conformance run` with these settings: the one resolver validates them (a mistake
 * throws a HarnessError with its code, naming the key), the same reports are written to `reportDir`. Reads no
 * environment variable.
 */
export async function runConformance<const S extends ConformanceSettings>(
  settings: ExactSettings<S> = {} as ExactSettings<S>,
  output: ConformanceOutput = {},
): Promise<ConformanceRun> {
  const config = resolveSettings(settings, RULE_IDS);
  const { runCommand } = await import('./run.ts');
  let report: BaselinedRunReport | undefined;
  const exitCode = await runCommand(config, {}, { out: output.out ?? ignore, err: output.err ?? ignore }, (judged) => {
    report = judged;
  });
  return report ? { exitCode, report } : { exitCode };
}

function ignore(): void {
  // A run from code prints nothing unless asked to.
}
