import { API_LIST, type TargetFlag } from '../apis/index.ts';
import { type CredentialFieldsOf, credentialSettings } from '../apis/descriptor.ts';
import { RUN_FLAGS, resolveConfig, type Shard } from '../core/config.ts';
import { HarnessError } from '../core/errors.ts';
import type { ProbeClass } from '../core/probe.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import { RULE_IDS } from '../rules/index.ts';

type Api = (typeof API_LIST)[number];

/** An API's credential as a run from code takes it: `<api><Field>` (`managementKeyId`, `alertsToken`). */
type CredentialName<A extends Api> = A extends Api ? `${A['name']}${Capitalize<CredentialFieldsOf<A>>}` : never;

/**
 * The settings that point a run at the APIs, from their descriptors: each target flag in camelCase (`--management-url`
 * is `managementUrl`, `--organization` is `organization`), and each credential, which the command takes from its
 * environment variable only (`managementKeyId` is `MANAGEMENT_KEY_ID`, `alertsToken` is `ALERTS_TOKEN`).
 */
export type TargetSettings = { readonly [F in TargetFlag as CamelCase<F>]?: string } & {
  readonly [N in CredentialName<Api>]?: string;
};

/**
 * The settings of a run given from code: each flag of `conformance run` in camelCase (`--management-url` is
 * `managementUrl`), plus the credentials that the command takes from environment variables only. Omitted settings
 * take the command's defaults; with no API's URL, the embedded reference target is started and used.
 */
export interface ConformanceSettings extends TargetSettings {
  readonly rules?: readonly string[];
  readonly skipRules?: readonly string[];
  readonly allow?: readonly ProbeClass[];
  readonly runs?: number;
  readonly seed?: number;
  readonly timeoutMs?: number;
  readonly budgetMs?: number;
  readonly maxRps?: number;
  readonly concurrency?: number;
  readonly maxRequests?: number;
  readonly maxResponseBytes?: number;
  readonly reportDir?: string;
  /** Writes every exchange of the run as HAR 1.2 to this file. */
  readonly har?: string;
  /** Gathers the run's evidence, with a manifest of hashes, in this folder. */
  readonly bundle?: string;
  readonly baseline?: string;
  readonly updateBaseline?: boolean;
  readonly dryRun?: boolean;
  readonly requireJudged?: boolean;
  /** Print every verdict, not only the failures and the counts. */
  readonly verbose?: boolean;
  readonly shard?: Shard;
  readonly referenceFault?: readonly string[];
  readonly referenceMode?: readonly string[];
  /** `--ca FILE`: certificate authorities (PEM) trusted besides the system's. */
  readonly ca?: string;
  /** `--client-cert FILE` and `--client-key FILE`: a client certificate (mutual TLS). */
  readonly clientCert?: string;
  readonly clientKey?: string;
  /** The client key's passphrase (the command's `CLIENT_KEY_PASSPHRASE`). */
  readonly clientKeyPassphrase?: string;
  /** The proxies and their exceptions (the command's `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY`). */
  readonly httpsProxy?: string;
  readonly httpProxy?: string;
  readonly noProxy?: string;
}

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

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type MissingSettings = Exclude<CamelCase<Exclude<keyof typeof RUN_FLAGS, 'help'>>, keyof ConformanceSettings>;
// A flag added to RUN_FLAGS without its setting in ConformanceSettings fails the type check here.
true satisfies [MissingSettings] extends [never] ? true : MissingSettings;

/** The settings that the command reads from environment variables only, and their variables. */
const CREDENTIALS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    API_LIST.flatMap((api) =>
      credentialSettings(api).map(({ field, variable }) => [
        `${api.name}${field.charAt(0).toUpperCase()}${field.slice(1)}`,
        variable,
      ]),
    ),
  ),
);

/** The settings that the command reads from the network's environment variables, and their variables. */
const NETWORK_VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  clientKeyPassphrase: 'CLIENT_KEY_PASSPHRASE',
  httpsProxy: 'HTTPS_PROXY',
  httpProxy: 'HTTP_PROXY',
  noProxy: 'NO_PROXY',
});

/** The credential settings as a message lists them: `managementKeyId, managementKeySecret and alertsToken`. */
const CREDENTIAL_NAMES = Object.keys(CREDENTIALS)
  .join(', ')
  .replace(/, (?=[^,]*$)/, ' and ');

/**
 * Runs the harness from code, like `conformance run` with these settings: the same resolver validates them (a mistake
 * throws a HarnessError with its code), the same reports are written to `reportDir`. Reads no environment variable.
 */
export async function runConformance(
  settings: ConformanceSettings = {},
  output: ConformanceOutput = {},
): Promise<ConformanceRun> {
  const { argv, env } = commandInputs(settings);
  const config = resolveConfig(argv, env, RULE_IDS);
  const { runCommand } = await import('./run.ts');
  let report: BaselinedRunReport | undefined;
  const exitCode = await runCommand(config, env, { out: output.out ?? ignore, err: output.err ?? ignore }, (judged) => {
    report = judged;
  });
  return report ? { exitCode, report } : { exitCode };
}

/**
 * The command line and environment that say the same as `settings`: flags for the settings, variables for the
 * credentials.
 */
export function commandInputs(settings: ConformanceSettings): { argv: string[]; env: Record<string, string> } {
  const argv: string[] = [];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings) as [string, unknown][]) {
    if (value === undefined) continue;
    const variable = CREDENTIALS[key] ?? NETWORK_VARIABLES[key];
    if (variable !== undefined) {
      env[variable] = String(value);
      continue;
    }
    const flag = key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    const option =
      flag === 'help' ? undefined : (RUN_FLAGS as Record<string, { type: string; multiple?: boolean }>)[flag];
    if (!option || key.includes('-')) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `runConformance: unknown setting ${JSON.stringify(key)}; the settings are the flags of ` +
          `\`conformance run\` in camelCase, plus ${CREDENTIAL_NAMES}.`,
      );
    }
    if (option.type === 'boolean') {
      if (value === true) argv.push(`--${flag}`);
    } else if (option.multiple) {
      for (const item of list(value)) argv.push(`--${flag}=${item}`);
    } else if (key === 'shard' && typeof value === 'object' && value !== null) {
      const { index, count } = value as Shard;
      argv.push(`--shard=${index}/${count}`);
    } else {
      argv.push(`--${flag}=${list(value).join(',')}`);
    }
  }
  return { argv, env };
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

function ignore(): void {
  // A run from code prints nothing unless asked to.
}
