import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_LIST, type ApiName, type ApiTargets, type TargetFlag } from '../apis/index.ts';
import { credentialSettings, otherTenantSettings, type SettingName } from '../apis/descriptor.ts';
import { deepFreeze } from './deep-freeze.ts';
import { DEFAULTS } from './defaults.ts';
import { didYouMean } from './did-you-mean.ts';
import { HarnessError } from './errors.ts';
import { PACKAGE_ROOT } from './package-root.ts';
import { PROBE_CLASSES, type ProbeClass } from './probe.ts';
import { BASE_URL_SETTING, givenTargetSettings, TARGET_SETTINGS, type GivenSetting } from './target-settings.ts';

/** Where and as whom an API is reached: the types its descriptor gives (`apis/`). */
export type { AlertsTarget } from '../apis/alerts.ts';
export type { ManagementTarget } from '../apis/management.ts';

/** The target of each API under test, under the API's name. */
type Targets = { readonly [A in ApiName]?: ApiTargets[A] };

/** One shard of a run split across machines: `index` of `count`, both from 1. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The complete, frozen settings of one run. */
export interface RunConfig extends Targets {
  /** Why an API is not under test, when it is not. */
  readonly unconfigured: { readonly [A in ApiName]?: string };
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
  /** `--har FILE`: where the run's exchanges are written as HAR 1.2 (an absolute path). */
  readonly har?: string;
  /** `--bundle DIR`: where the run's evidence is gathered with its manifest (an absolute path). */
  readonly bundle?: string;
  readonly baseline?: string;
  readonly updateBaseline: boolean;
  /** Fail the run when a selected rule could not be judged on an operation (not when it was skipped by choice). */
  readonly requireJudged: boolean;
  readonly dryRun: boolean;
  readonly shard?: Shard;
  /** Where vitest keeps its caches, outside the installed package (see `cacheDirectory`). */
  readonly cacheDir: string;
}

/** The flags of `conformance run`, as node:util parseArgs options. */
export const RUN_FLAGS = Object.freeze({
  ...(Object.fromEntries(TARGET_SETTINGS.flatMap(({ flag }) => (flag ? [[flag, { type: 'string' }]] : []))) as Record<
    TargetFlag,
    { readonly type: 'string' }
  >),
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
  har: { type: 'string' },
  bundle: { type: 'string' },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  'require-judged': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  verbose: { type: 'boolean' },
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
    // Node's own message, on one line and with one full stop (its ambiguity message spans three lines and ends with
    // one).
    const said = (error as Error).message.replace(/\s*\n\s*/g, ' ').replace(/\.$/, '');
    throw new HarnessError('CONFIG_INVALID', `${said}. Run \`conformance --help\` for the flags.`, { cause: error });
  }
}

/**
 * Resolves flags, environment and defaults into one frozen RunConfig, or throws a HarnessError naming
 * the setting at fault. `knownRules` are the rule ids that `--rules` and `--skip-rules` may name.
 */
export function resolveConfig(argv: readonly string[], env: Env, knownRules: readonly string[]): RunConfig {
  const flags = parseRunArgs(argv);
  const str = (flag: string): string | undefined => {
    const fromFlag = flags[flag];
    return typeof fromFlag === 'string' ? fromFlag.trim() || undefined : undefined;
  };

  const given = givenTargetSettings(flags, env);
  const useReference = given.size === 0;

  const faults = (flags['reference-fault'] as string[] | undefined) ?? [];
  const modes = (flags['reference-mode'] as string[] | undefined) ?? [];
  if (!useReference && (faults.length > 0 || modes.length > 0)) {
    throw new HarnessError(
      'CONFIG_INVALID',
      '--reference-fault and --reference-mode apply to the embedded reference target only, which runs when ' +
        `no target setting is present, but ${[...given.values()].map((g) => g.name).join(', ')} ` +
        `${given.size === 1 ? 'is' : 'are'} set: unset ${given.size === 1 ? 'it' : 'them'} (or drop the ` +
        'flags).',
    );
  }
  const targets = resolveTargets(given);

  const known = new Set(knownRules);
  const chosen = ruleList(str('rules'), '--rules', known);
  const skippedIds = ruleList(str('skip-rules'), '--skip-rules', known);
  const selected = chosen ?? [...knownRules];
  const skipped = new Set(skippedIds ?? []);

  const config: RunConfig = {
    ...targets,
    unconfigured: Object.fromEntries(
      API_LIST.filter((api) => !useReference && !targets[api.name]).map(({ name, settings: { baseUrl } }) => [
        name,
        `${baseUrl.variable} (--${baseUrl.flag}) is not set`,
      ]),
    ),
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
    ...optional(
      'maxRequests',
      str('max-requests') === undefined ? undefined : integer(str('max-requests'), '--max-requests', 0, 1, 10_000_000),
    ),
    maxResponseBytes: integer(
      str('max-response-bytes'),
      '--max-response-bytes',
      DEFAULTS.maxResponseBytes,
      1024,
      1024 ** 3,
    ),
    reportDir: str('report-dir') ?? DEFAULTS.reportDir,
    ...optional('har', outputPath(str('har'), '--har', flags.har)),
    ...optional('bundle', outputPath(str('bundle'), '--bundle', flags.bundle)),
    ...optional('baseline', str('baseline')),
    updateBaseline: flags['update-baseline'] === true,
    requireJudged: flags['require-judged'] === true,
    dryRun: flags['dry-run'] === true,
    ...optional('shard', shard(str('shard'))),
    cacheDir: cacheDirectory(env),
  };
  if (config.updateBaseline && !config.baseline) {
    throw new HarnessError('CONFIG_INVALID', '--update-baseline needs --baseline FILE: name the file to write.');
  }
  return deepFreeze(config);
}

/**
 * The harness's cache folder: `$XDG_CACHE_HOME/contract-conformance` (an absolute path), else
 * `~/.cache/contract-conformance`.
 */
export function cacheDirectory(env: Env): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  // One folder per installation: vitest clears its module cache when the lockfile changes, so two installations
  // sharing a folder (a project's and a global one, say) would clear each other's while both run.
  const installation = createHash('sha256').update(PACKAGE_ROOT).digest('hex').slice(0, 12);
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'contract-conformance', installation);
}

/**
 * Returns a copy of a config pointed at the embedded reference target: every API's target from the settings the
 * target gives under the variables a user would set, resolved as a user's are. Throws when it serves not every API.
 */
export function withTargets(config: RunConfig, settings: Env): RunConfig {
  const targets = resolveTargets(givenTargetSettings({}, settings));
  const missing = API_LIST.filter((api) => !targets[api.name]).map((api) => api.name);
  if (missing.length > 0) throw new Error(`it serves no ${missing.join(' or ')} API`);
  return deepFreeze({ ...config, ...targets, unconfigured: {} });
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * The target of each API from the target settings given, as its descriptor names the fields: a setting given empty,
 * credentials and ids without their API's base URL, or a required one missing, is a CONFIG_MISSING error naming the
 * variable to set.
 */
function resolveTargets(given: ReadonlyMap<string, GivenSetting>): Targets {
  for (const { name, value, setting } of given.values()) {
    if (value.trim() === '') {
      throw new HarnessError(
        'CONFIG_MISSING',
        `${name} is set but empty: give it a value, or unset it (in GitHub Actions, \`\${{ ` +
          `vars.${setting.variable} }}\` is empty when the repository variable is not defined).`,
      );
    }
  }
  for (const { name: api } of API_LIST) {
    const base = BASE_URL_SETTING[api];
    const without = [...given.values()]
      .filter((g) => g.setting.api === api && g.setting.variable !== base.variable)
      .map((g) => g.name);
    if (!given.has(base.variable) && without.length > 0) {
      throw new HarnessError(
        'CONFIG_MISSING',
        `${base.variable} (--${base.flag}) is not set, but ${without.join(', ')} ` +
          `${without.length === 1 ? 'is' : 'are'}: set ${base.variable} to the base URL of the ${api} API ` +
          `(its ${base.prefix}/... paths go under it), or unset ${without.length === 1 ? 'it' : 'them'} to ` +
          `leave the ${api} API out of the run.`,
      );
    }
  }
  const nameOf = ({ variable, flag }: SettingName): string =>
    given.get(variable)?.name ?? (flag ? `${variable} (or --${flag})` : variable);
  const targets: Partial<Record<ApiName, Readonly<Record<string, string>>>> = {};
  for (const api of API_LIST) {
    const url = given.get(api.settings.baseUrl.variable);
    if (!url) continue;
    const target: Record<string, string> = { baseUrl: baseUrl(url.value, url.name, api.settings.pathPrefix) };
    for (const setting of credentialSettings(api)) {
      target[setting.field] = required(given.get(setting.variable)?.value, nameOf(setting), setting.about);
    }
    for (const setting of api.settings.ids) {
      const id = given.get(setting.variable)?.value.trim();
      if (setting.required) target[setting.field] = required(id, nameOf(setting), setting.about);
      else if (id !== undefined) target[setting.field] = id;
    }
    // Another tenant's settings: all or none.
    const other = otherTenantSettings(api);
    if (other.some((setting) => given.has(setting.variable)))
      for (const setting of other)
        target[setting.field] = required(given.get(setting.variable)?.value, nameOf(setting), setting.about);
    targets[api.name] = target;
  }
  // Each target has the fields its descriptor names, which is what TargetOf types.
  return targets as Targets;
}

function required(value: string | undefined, name: string, about: string): string {
  if (value === undefined || value.trim() === '') {
    throw new HarnessError(
      'CONFIG_MISSING',
      `${name} is not set: it is the ${about}, needed for this target. Set it and run again.`,
    );
  }
  return value;
}

function baseUrl(value: string, name: string, prefix: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch (error) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} is not a URL (${JSON.stringify(value)}): give an absolute http(s) URL such as https://api.example.com.`,
      { cause: error },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} must use http or https, not ${url.protocol.slice(0, -1)}: give an absolute http(s) URL such ` +
        'as https://api.example.com.',
    );
  }
  if (url.username || url.password) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} must not carry credentials: put them in the credential variables instead.`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(prefix)) {
    const without = `${url.origin}${path.slice(0, -prefix.length)}`;
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} ends with ${path.slice(-prefix.length)}, but the harness appends the API's paths ` +
        `(${prefix}/...) to it: drop ${prefix} and give ${without}.`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** An output file or folder's absolute path; a flag given empty is a CONFIG_INVALID error naming it. */
function outputPath(value: string | undefined, name: string, given: unknown): string | undefined {
  if (given !== undefined && value === undefined)
    throw new HarnessError('CONFIG_INVALID', `${name} needs a path: name the file or folder to write.`);
  return value === undefined ? undefined : resolve(value);
}

function integer(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`,
    );
  }
  return Number(value);
}

function ruleList(value: string | undefined, name: string, known: ReadonlySet<string>): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} names unknown rule ${unknown.map((id) => `${id}${didYouMean(id, [...known])}`).join(', ')}: ` +
        `the ids are listed by \`conformance rules\` and in docs/rules.md.`,
    );
  }
  return ids;
}

function allowList(value: string | undefined): ProbeClass[] {
  if (value === undefined) return [...DEFAULTS.allow];
  const classes = value
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const bad = classes.filter((c) => !(PROBE_CLASSES as readonly string[]).includes(c));
  if (bad.length > 0 || classes.length === 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `--allow takes a comma-separated list of ${PROBE_CLASSES.join(', ')}; ${JSON.stringify(value)} is not one.`,
    );
  }
  return classes as ProbeClass[];
}

function shard(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `--shard must be i/n with 1 <= i <= n, such as 1/3, not ${JSON.stringify(value)}.`,
    );
  }
  return { index, count };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** Returns a copy of a config with the planner's choice of examples per property. */
export function withRuns(config: RunConfig, runs: number): RunConfig {
  return runs === config.runs ? config : deepFreeze({ ...config, runs });
}
