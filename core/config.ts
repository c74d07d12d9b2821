import { parseArgs } from 'node:util';
import { DEFAULTS } from './defaults.ts';
import { HarnessError } from './errors.ts';
import { PROBE_CLASSES, type ProbeClass } from './probe.ts';

/** Where and as whom the management API is reached. */
export interface ManagementTarget {
  readonly baseUrl: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly organizationId: string;
  readonly serviceId: string;
  readonly backupId?: string;
}

/** Where and as whom the alerts API is reached. */
export interface AlertsTarget {
  readonly baseUrl: string;
  readonly token: string;
  readonly alertId?: string;
}

/** One shard of a run split across machines: `index` of `count`, both from 1. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The complete, frozen settings of one run. */
export interface RunConfig {
  readonly management?: ManagementTarget;
  readonly alerts?: AlertsTarget;
  /** Why an API is not under test, when it is not. */
  readonly unconfigured: { readonly management?: string; readonly alerts?: string };
  /** Set when no target is configured: the embedded reference target is started with these. */
  readonly reference?: { readonly faults: readonly string[]; readonly modes: readonly string[] };
  readonly rules: readonly string[];
  /** The rule selection as given (`--rules`, `--skip-rules`), so that a replay narrows the same way. */
  readonly selection?: { readonly rules?: readonly string[]; readonly skipRules?: readonly string[] };
  readonly allow: readonly ProbeClass[];
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly budgetMs: number;
  readonly maxRps: number;
  readonly concurrency: number;
  readonly maxRequests?: number;
  readonly maxResponseBytes: number;
  readonly reportDir: string;
  readonly baseline?: string;
  readonly updateBaseline: boolean;
  readonly dryRun: boolean;
  readonly shard?: Shard;
}

/** The flags of `conformance run`, as node:util parseArgs options. */
export const RUN_FLAGS = Object.freeze({
  'management-url': { type: 'string' },
  organization: { type: 'string' },
  service: { type: 'string' },
  backup: { type: 'string' },
  'alerts-url': { type: 'string' },
  alert: { type: 'string' },
  rules: { type: 'string' },
  'skip-rules': { type: 'string' },
  allow: { type: 'string' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'budget-ms': { type: 'string' },
  'max-rps': { type: 'string' },
  concurrency: { type: 'string' },
  'max-requests': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  'report-dir': { type: 'string' },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  shard: { type: 'string' },
  'reference-fault': { type: 'string', multiple: true },
  'reference-mode': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const);

type Env = Readonly<Record<string, string | undefined>>;

/** Parses argv of `conformance run`; unknown flags are a CONFIG_INVALID error. */
export function parseRunArgs(argv: readonly string[]): Record<string, string | string[] | boolean | undefined> {
  try {
    return parseArgs({ args: [...argv], options: RUN_FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `${(error as Error).message}. Run \`conformance --help\` for the flags.`, { cause: error });
  }
}

/**
 * Resolves flags, environment and defaults into one frozen RunConfig, or throws a HarnessError naming
 * the setting at fault. `knownRules` are the rule ids that `--rules` and `--skip-rules` may name.
 */
export function resolveConfig(argv: readonly string[], env: Env, knownRules: readonly string[]): RunConfig {
  const flags = parseRunArgs(argv);
  const str = (flag: string, variable?: string): string | undefined => {
    const fromFlag = flags[flag];
    if (typeof fromFlag === 'string') return fromFlag.trim() || undefined;
    return variable ? env[variable]?.trim() || undefined : undefined;
  };

  const managementUrl = str('management-url', 'MANAGEMENT_BASE_URL');
  const alertsUrl = str('alerts-url', 'ALERTS_BASE_URL');
  const useReference = !managementUrl && !alertsUrl;

  const faults = (flags['reference-fault'] as string[] | undefined) ?? [];
  const modes = (flags['reference-mode'] as string[] | undefined) ?? [];
  if (!useReference && (faults.length > 0 || modes.length > 0)) {
    throw new HarnessError('CONFIG_INVALID', '--reference-fault and --reference-mode apply to the embedded reference target only: unset MANAGEMENT_BASE_URL and ALERTS_BASE_URL (or drop the flags).');
  }

  const management = managementUrl
    ? {
        baseUrl: baseUrl(managementUrl, '--management-url / MANAGEMENT_BASE_URL'),
        keyId: required(env.MANAGEMENT_KEY_ID, 'MANAGEMENT_KEY_ID', 'the management API key id (HTTP Basic user)'),
        keySecret: required(env.MANAGEMENT_KEY_SECRET, 'MANAGEMENT_KEY_SECRET', 'the management API key secret (HTTP Basic password)'),
        organizationId: required(str('organization', 'ORGANIZATION_ID'), 'ORGANIZATION_ID (or --organization)', 'the organization to run against'),
        serviceId: required(str('service', 'SERVICE_ID'), 'SERVICE_ID (or --service)', 'the service that owns the pipes the run creates'),
        ...optional('backupId', str('backup', 'BACKUP_ID')),
      }
    : undefined;
  const alerts = alertsUrl
    ? {
        baseUrl: baseUrl(alertsUrl, '--alerts-url / ALERTS_BASE_URL'),
        token: required(env.ALERTS_TOKEN, 'ALERTS_TOKEN', 'the Bearer token of the alerts API'),
        ...optional('alertId', str('alert', 'ALERT_ID')),
      }
    : undefined;

  const known = new Set(knownRules);
  const chosen = ruleList(str('rules'), '--rules', known);
  const skippedIds = ruleList(str('skip-rules'), '--skip-rules', known);
  const selected = chosen ?? [...knownRules];
  const skipped = new Set(skippedIds ?? []);

  const config: RunConfig = {
    ...optional('management', management),
    ...optional('alerts', alerts),
    unconfigured: {
      ...optional('management', useReference || management ? undefined : 'MANAGEMENT_BASE_URL (--management-url) is not set'),
      ...optional('alerts', useReference || alerts ? undefined : 'ALERTS_BASE_URL (--alerts-url) is not set'),
    },
    ...optional('reference', useReference ? { faults, modes } : undefined),
    rules: selected.filter((id) => !skipped.has(id)),
    selection: { ...optional('rules', chosen), ...optional('skipRules', skippedIds) },
    allow: allowList(str('allow')),
    runs: integer(str('runs'), '--runs', DEFAULTS.runs, 1, 10_000),
    seed: integer(str('seed'), '--seed', randomSeed(), 0, 2 ** 31 - 1),
    timeoutMs: integer(str('timeout-ms'), '--timeout-ms', DEFAULTS.timeoutMs, 1, 600_000),
    budgetMs: integer(str('budget-ms'), '--budget-ms', DEFAULTS.budgetMs, 1_000, 86_400_000),
    maxRps: integer(str('max-rps'), '--max-rps', DEFAULTS.maxRps, 0, 100_000),
    concurrency: integer(str('concurrency'), '--concurrency', DEFAULTS.concurrency, 1, 256),
    ...optional('maxRequests', str('max-requests') === undefined ? undefined : integer(str('max-requests'), '--max-requests', 0, 1, 10_000_000)),
    maxResponseBytes: integer(str('max-response-bytes'), '--max-response-bytes', DEFAULTS.maxResponseBytes, 1024, 1024 ** 3),
    reportDir: str('report-dir') ?? DEFAULTS.reportDir,
    ...optional('baseline', str('baseline')),
    updateBaseline: flags['update-baseline'] === true,
    dryRun: flags['dry-run'] === true,
    ...optional('shard', shard(str('shard'))),
  };
  if (config.updateBaseline && !config.baseline) {
    throw new HarnessError('CONFIG_INVALID', '--update-baseline needs --baseline FILE: name the file to write.');
  }
  return deepFreeze(config);
}

/** Returns a copy of a config with the embedded reference target's addresses and credentials filled in. */
export function withTargets(config: RunConfig, management: ManagementTarget, alerts: AlertsTarget): RunConfig {
  return deepFreeze({ ...config, management, alerts, unconfigured: {} });
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function required(value: string | undefined, name: string, what: string): string {
  if (value === undefined || value.trim() === '') {
    throw new HarnessError('CONFIG_MISSING', `${name} is not set: it is ${what}, needed for this target. Set it and run again.`);
  }
  return value;
}

function baseUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `${name} is not a URL (${JSON.stringify(value)}): give an absolute http(s) URL such as https://api.example.com.`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('CONFIG_INVALID', `${name} must use http or https, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new HarnessError('CONFIG_INVALID', `${name} must not carry credentials: put them in the credential variables instead.`);
  }
  return url.href.replace(/\/+$/, '');
}

function integer(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HarnessError('CONFIG_INVALID', `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`);
  }
  return Number(value);
}

function ruleList(value: string | undefined, name: string, known: ReadonlySet<string>): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.split(',').map((id) => id.trim()).filter(Boolean);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new HarnessError('CONFIG_INVALID', `${name} names unknown rule ${unknown.join(', ')}: the ids are listed by \`conformance rules\` and in docs/rules.md.`);
  }
  return ids;
}

function allowList(value: string | undefined): ProbeClass[] {
  if (value === undefined) return [...DEFAULTS.allow];
  const classes = value.split(',').map((c) => c.trim()).filter(Boolean);
  const bad = classes.filter((c) => !(PROBE_CLASSES as readonly string[]).includes(c));
  if (bad.length > 0 || classes.length === 0) {
    throw new HarnessError('CONFIG_INVALID', `--allow takes a comma-separated list of ${PROBE_CLASSES.join(', ')}; ${JSON.stringify(value)} is not one.`);
  }
  return classes as ProbeClass[];
}

function shard(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new HarnessError('CONFIG_INVALID', `--shard must be i/n with 1 <= i <= n, such as 1/3, not ${JSON.stringify(value)}.`);
  }
  return { index, count };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Returns a copy of a config with the planner's choice of examples per property. */
export function withRuns(config: RunConfig, runs: number): RunConfig {
  return runs === config.runs ? config : deepFreeze({ ...config, runs });
}
