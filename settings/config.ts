import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { API_LIST, type ApiName, type ApiTargets, type TargetFlag } from '../apis/index.ts';
import {
  type CredentialFieldsOf,
  credentialSettings,
  type OtherFieldsOf,
  otherTenantSettings,
  type SettingName,
} from '../apis/descriptor.ts';
import { readSettingsFile, type SettingsFile } from './config-file.ts';
import { deepFreeze } from '../core/deep-freeze.ts';
import { DEFAULTS } from './defaults.ts';
import { didYouMean } from '../core/did-you-mean.ts';
import { HarnessError } from '../core/errors.ts';
import { NETWORK_VARIABLES, type NetworkGiven, type NetworkSettings, resolveNetwork } from './network-settings.ts';
import { PROBE_CLASSES, type ProbeClass } from '../core/probe-types.ts';
import { refuseSocks } from './proxy-route.ts';
import {
  HEADER_SETTINGS,
  type HeaderKey,
  type HeadersGiven,
  parseHeaders,
  type RunHeaders,
  runHeaders,
} from './request-headers.ts';
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
  /** The APIs the run may send to (`--api`, `apis`): every API unless the user chose some; nothing goes to the rest. */
  readonly apis: readonly ApiName[];
  /** Set when no target is configured: the embedded reference target is started with these. */
  readonly reference?: { readonly faults: readonly string[]; readonly modes: readonly string[] };
  readonly rules: readonly string[];
  /** The rule selection as given (`--rules`, `--skip-rules`), so that a replay narrows the same way. */
  readonly selection?: { readonly rules?: readonly string[]; readonly skipRules?: readonly string[] };
  readonly allow: readonly ProbeClass[];
  /**
   * How `allow` was settled: given (by the caller, under `name`), or the default for the kind of target (`name` is then
   * how the caller would give it).
   */
  readonly allowFrom: { readonly given: boolean; readonly name: string };
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
  /** Proxies (for a configured target), `--ca`, the client certificate: what the dispatchers are made with. */
  readonly network: NetworkSettings;
  /** `--header`, `--<api>-header`: what each API's requests carry beside the harness's own headers (secrets). */
  readonly headers: RunHeaders;
  /** The settings file read (`--config FILE`, or one found in the working folder), when one was. */
  readonly settingsFile?: { readonly path: string; readonly found: boolean };
  /**
   * Each target and header setting given, by its variable (`MANAGEMENT_BASE_URL`, `MANAGEMENT_HEADERS`), as the user
   * named it (`--management-url`, `MANAGEMENT_BASE_URL`, `managementUrl in team.json`, `managementUrl`): what the
   * preflight's messages call it.
   */
  readonly names: Readonly<Record<string, string>>;
}

/** The flags of `conformance run`, as node:util parseArgs options. */
export const RUN_FLAGS = Object.freeze({
  ...(Object.fromEntries(TARGET_SETTINGS.flatMap(({ flag }) => (flag ? [[flag, { type: 'string' }]] : []))) as Record<
    TargetFlag,
    { readonly type: 'string' }
  >),
  api: { type: 'string' },
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
  ca: { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  baseline: { type: 'string' },
  'update-baseline': { type: 'boolean' },
  'require-judged': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  verbose: { type: 'boolean' },
  shard: { type: 'string' },
  'reference-fault': { type: 'string', multiple: true },
  'reference-mode': { type: 'string', multiple: true },
  ...(Object.fromEntries(HEADER_SETTINGS.map(({ flag }) => [flag, { type: 'string', multiple: true }])) as Record<
    'header' | `${ApiName}-header`,
    { readonly type: 'string'; readonly multiple: true }
  >),
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const);

type Env = Readonly<Record<string, string | undefined>>;

type Api = (typeof API_LIST)[number];

/**
 * An API's credential, or another tenant's setting, as a settings object names it: `<api><Field>` (`managementKeyId`,
 * `alertsToken`, `alertsOtherToken`).
 */
type CredentialName<A extends Api> = A extends Api
  ? `${A['name']}${Capitalize<CredentialFieldsOf<A> | OtherFieldsOf<A>>}`
  : never;

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * The settings that point a run at the APIs, from their descriptors: each target flag in camelCase (`--management-url`
 * is `managementUrl`, `--organization` is `organization`), and each credential, which the command takes from its
 * environment variable only (`managementKeyId` is `MANAGEMENT_KEY_ID`, `alertsToken` is `ALERTS_TOKEN`).
 */
export type TargetSettings = { readonly [F in TargetFlag as CamelCase<F>]?: string } & {
  readonly [N in CredentialName<Api>]?: string;
};

/**
 * A run's settings as an object, what the one resolver (`resolveSettings`) takes: each flag of `conformance run` in
 * camelCase (`--management-url` is `managementUrl`), plus the credentials that the command takes from environment
 * variables only. Omitted settings take the defaults; with no API's URL, the embedded reference target is used.
 */
export interface GivenSettings extends TargetSettings, NetworkGiven, HeadersSettings {
  /** The APIs under test (`--api`): only these are sent anything, even when the others' settings are given. */
  readonly apis?: readonly ApiName[] | string;
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
  /** Print every verdict, not only the failures and the counts (the command's terminal summary). */
  readonly verbose?: boolean;
  readonly shard?: Shard;
  readonly referenceFault?: readonly string[];
  readonly referenceMode?: readonly string[];
}

/**
 * The headers every request carries, as `Name: value` lines or an object of names to values: `headers` on both APIs'
 * requests, `managementHeaders` or `alertsHeaders` on one API's (its own win over `headers` for the same name).
 */
type HeadersSettings = { readonly [K in HeaderKey]?: HeadersGiven };

type SettingKey = keyof GivenSettings;
/** The flags whose settings key is not the flag in camelCase: `--header` is `headers`, `--api` is `apis`. */
type OwnKeyFlag = 'help' | 'config' | 'header' | `${ApiName}-header` | 'api';
type MissingSettings = Exclude<CamelCase<Exclude<keyof typeof RUN_FLAGS, OwnKeyFlag>>, SettingKey>;
// A flag added to RUN_FLAGS without its key in GivenSettings fails the type check here.
true satisfies [MissingSettings] extends [never] ? true : MissingSettings;

/**
 * How the caller named each setting, for the errors: a settings object's own keys (`runs`), or the command's flags and
 * variables (`--runs`, `MANAGEMENT_BASE_URL`).
 */
export interface SettingNames {
  /** The setting as the caller gave it, or would give it. */
  of(key: SettingKey): string;
  /** A setting not given, as a message asks for it (the command: its variable and its flag). */
  missing(key: SettingKey): string;
}

/** A settings object's names: its keys. */
const KEY_NAMES: SettingNames = Object.freeze({ of: (key: string) => key, missing: (key: string) => key });

const kebab = (key: string): string => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Each target setting's key in a settings object, by its variable: its flag in camelCase, else `<api><Field>`. */
const TARGET_KEYS: ReadonlyMap<string, SettingKey> = new Map(
  API_LIST.flatMap((api) => [
    ...[api.settings.baseUrl, ...api.settings.ids].flatMap((setting) =>
      setting.flag ? [[setting.variable, camel(setting.flag) as SettingKey] as const] : [],
    ),
    ...[...credentialSettings(api), ...otherTenantSettings(api)].map(
      ({ field, variable }) =>
        [variable, `${api.name}${field.charAt(0).toUpperCase()}${field.slice(1)}` as SettingKey] as const,
    ),
  ]),
);

/**
 * A settings object that points a run where these variables do (`MANAGEMENT_BASE_URL`, `ORGANIZATION_ID`, ...): each
 * target variable under its key (`managementUrl`, `organization`); other variables are left out.
 */
export function settingsOfVariables(variables: Readonly<Record<string, string>>): GivenSettings {
  return Object.fromEntries(
    Object.entries(variables).flatMap(([variable, value]) => {
      const key = TARGET_KEYS.get(variable);
      return key ? [[key, value]] : [];
    }),
  ) as GivenSettings;
}

/** The flags of the command alone, which no settings object holds. */
const COMMAND_ONLY: ReadonlySet<string> = new Set(['help', 'config']);

/** Every key a settings object may have. */
const SETTING_KEYS: ReadonlySet<string> = new Set([
  ...Object.keys(RUN_FLAGS)
    .filter(
      (flag) => !COMMAND_ONLY.has(flag) && flag !== 'api' && !HEADER_SETTINGS.some((setting) => setting.flag === flag),
    )
    .map(camel),
  'apis',
  ...HEADER_SETTINGS.map((setting) => setting.key),
  ...TARGET_KEYS.values(),
  ...Object.keys(NETWORK_VARIABLES),
]);

/** The credential keys as a message lists them: `managementKeyId, managementKeySecret and alertsToken`. */
const CREDENTIAL_KEYS = API_LIST.flatMap((api) =>
  [...credentialSettings(api), ...otherTenantSettings(api)].map((s) => TARGET_KEYS.get(s.variable)),
)
  .join(', ')
  .replace(/, (?=[^,]*$)/, ' and ');

/** The credential keys of a settings object, which no settings file may hold, each with its variable. */
const FILE_CREDENTIALS: ReadonlyMap<string, string> = new Map([
  ...API_LIST.flatMap((api) =>
    [...credentialSettings(api), ...otherTenantSettings(api)]
      .filter((s) => !api.settings.other?.ids.includes(s as (typeof api.settings.other.ids)[number]))
      .map((s) => [TARGET_KEYS.get(s.variable) as string, s.variable] as const),
  ),
  ['clientKeyPassphrase', NETWORK_VARIABLES.clientKeyPassphrase.at(-1)!],
]);

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
 * The command's settings: its flags and environment as a settings object, and the names the user gave them under
 * (a target setting's flag wins over its variable), so that the resolver's errors name flags and variables.
 */
export function commandSettings(
  argv: readonly string[],
  env: Env,
  cwd: string = process.cwd(),
): { given: GivenSettings; names: SettingNames; file?: SettingsFile } {
  const flags = parseRunArgs(argv);
  const file = readSettingsFile(typeof flags.config === 'string' ? flags.config : undefined, cwd, env, {
    keys: [...SETTING_KEYS].filter((key) => !FILE_CREDENTIALS.has(key)),
    credentials: FILE_CREDENTIALS,
  });
  const given: Record<string, unknown> = {};
  const targetNames = new Map<string, string>();
  for (const [flag, value] of Object.entries(flags)) {
    if (COMMAND_ONLY.has(flag) || TARGET_SETTINGS.some((setting) => setting.flag === flag)) continue;
    if (HEADER_SETTINGS.some((setting) => setting.flag === flag)) continue;
    if (flag === 'api') {
      given.apis = value;
      targetNames.set('apis', '--api');
      continue;
    }
    // A value given empty is not given (`--har` excepted, which says that it needs a path).
    given[camel(flag)] =
      typeof value === 'string' && flag !== 'har' && flag !== 'bundle' ? value.trim() || undefined : value;
  }
  for (const { setting, value, name } of givenTargetSettings(flags, env).values()) {
    const key = TARGET_KEYS.get(setting.variable);
    if (key) given[key] = value;
    targetNames.set(key ?? setting.variable, name);
  }
  for (const [key, variables] of Object.entries(NETWORK_VARIABLES)) {
    const variable = variables.find((name) => env[name] !== undefined) ?? variables[variables.length - 1]!;
    if (env[variable] !== undefined) given[key] = env[variable];
    targetNames.set(key, variable);
  }
  for (const { key, flag, variable } of HEADER_SETTINGS) {
    const fromFlag = flags[flag];
    // A flag replaces the variable's lines whole, as every flag replaces its variable.
    if (Array.isArray(fromFlag)) given[key] = fromFlag;
    else if (env[variable] !== undefined) given[key] = env[variable];
    targetNames.set(key, Array.isArray(fromFlag) ? `--${flag}` : env[variable] !== undefined ? variable : `--${flag}`);
  }
  // The file is below flags and variables: each of its settings is read where neither gave it.
  const shown = file && (file.found ? relative(cwd, file.path) : String(flags.config));
  for (const [key, value] of Object.entries(file?.settings ?? {})) {
    if (given[key] !== undefined) continue;
    given[key] = value;
    targetNames.set(key, `${key} in ${shown}`);
  }
  const missing = (key: SettingKey): string => {
    const setting = TARGET_SETTINGS.find((s) => TARGET_KEYS.get(s.variable) === key);
    if (!setting) return `--${kebab(key)}`;
    if (!setting.flag) return setting.variable;
    const isBaseUrl = BASE_URL_SETTING[setting.api].variable === setting.variable;
    return `${setting.variable} (${isBaseUrl ? '' : 'or '}--${setting.flag})`;
  };
  const names: SettingNames = {
    of(key) {
      const setting = TARGET_SETTINGS.find((s) => TARGET_KEYS.get(s.variable) === key);
      return targetNames.get(key) ?? setting?.variable ?? `--${kebab(key)}`;
    },
    missing: (key) => targetNames.get(key) ?? missing(key),
  };
  return { given: given as GivenSettings, names, ...optional('file', file) };
}

/**
 * The command's resolver: flags, environment, the settings file (`--config`, or one found in `cwd`) and defaults into
 * one frozen RunConfig (`commandSettings`, then `resolveSettings`), or a HarnessError naming the flag, variable or key
 * at fault. `knownRules` are the rule ids that `--rules` and `--skip-rules` may name.
 */
export function resolveConfig(
  argv: readonly string[],
  env: Env,
  knownRules: readonly string[],
  cwd: string = process.cwd(),
): RunConfig {
  const { given, names, file } = commandSettings(argv, env, cwd);
  const nodeExtraCaCerts = env.NODE_EXTRA_CA_CERTS;
  const config = resolveSettings(given, knownRules, {
    names,
    ...optional('nodeExtraCaCerts', nodeExtraCaCerts),
  });
  return file ? deepFreeze({ ...config, settingsFile: { path: file.path, found: file.found } }) : config;
}

/**
 * The one resolver: a settings object and the defaults into one frozen RunConfig, or a HarnessError naming the setting
 * at fault as the caller named it (`names`: by default the object's keys). Values are checked whatever their type, as
 * JavaScript callers may pass anything.
 */
export function resolveSettings(
  given: GivenSettings,
  knownRules: readonly string[],
  options: { readonly names?: SettingNames; readonly nodeExtraCaCerts?: string } = {},
): RunConfig {
  const names = options.names ?? KEY_NAMES;
  const read = new SettingsReader(given as Readonly<Record<string, unknown>>, names);
  const unknown = Object.keys(given).filter((key) => !SETTING_KEYS.has(key));
  if (unknown.length > 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `unknown setting ${unknown.map((key) => JSON.stringify(key) + didYouMean(key, [...SETTING_KEYS])).join(', ')}; ` +
        `the settings are the flags of \`conformance run\` in camelCase, plus ${CREDENTIAL_KEYS}.`,
    );
  }

  const targetGiven = new Map<string, GivenSetting>();
  for (const setting of TARGET_SETTINGS) {
    const key = TARGET_KEYS.get(setting.variable);
    const value = key === undefined ? undefined : read.raw(key);
    if (key !== undefined && value !== undefined)
      targetGiven.set(setting.variable, { setting, value, name: names.of(key) });
  }
  const useReference = targetGiven.size === 0;

  const faults = read.strings('referenceFault') ?? [];
  const modes = read.strings('referenceMode') ?? [];
  if (!useReference && (faults.length > 0 || modes.length > 0)) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${names.of('referenceFault')} and ${names.of('referenceMode')} apply to the embedded reference target only, ` +
        'which runs when no target setting is present, but ' +
        `${[...targetGiven.values()].map((g) => g.name).join(', ')} ` +
        `${targetGiven.size === 1 ? 'is' : 'are'} set: unset ${targetGiven.size === 1 ? 'it' : 'them'} (or drop the ` +
        'flags).',
    );
  }
  // With `--api`, the other API's settings are left as given and unread: nothing is sent to it.
  const apis = apiList(read.strings('apis'), names.of('apis'), given.apis);
  const chosenApis = new Map([...targetGiven].filter(([, g]) => apis.includes(g.setting.api)));
  for (const api of apis) {
    const base = BASE_URL_SETTING[api];
    if (!useReference && apis.length < API_LIST.length && !chosenApis.has(base.variable))
      throw new HarnessError(
        'CONFIG_MISSING',
        `${names.of('apis')} ${apis.join(',')} runs the ${api} API, but ` +
          `${names.missing(TARGET_KEYS.get(base.variable) as SettingKey)} is not set: set it to the base URL of the ` +
          `${api} API (its ${base.prefix}/... paths go under it).`,
      );
  }
  const targets = resolveTargets(chosenApis, names);
  const leftOut = (api: ApiName): string | undefined =>
    apis.includes(api) ? undefined : `left out by ${names.of('apis')} ${apis.join(',')}: nothing is sent to it`;

  const known = new Set(knownRules);
  const chosen = ruleList(read.strings('rules'), names.of('rules'), known);
  const skippedIds = ruleList(read.strings('skipRules'), names.of('skipRules'), known);
  const selected = chosen ?? [...knownRules];
  const skipped = new Set(skippedIds ?? []);

  const config: RunConfig = {
    ...targets,
    unconfigured: Object.fromEntries(
      API_LIST.filter((api) => leftOut(api.name) || (!useReference && !targets[api.name])).map(
        ({ name, settings: { baseUrl } }) => [
          name,
          leftOut(name) ?? `${names.missing(TARGET_KEYS.get(baseUrl.variable) as SettingKey)} is not set`,
        ],
      ),
    ),
    apis,
    ...optional('reference', useReference ? { faults, modes } : undefined),
    rules: selected.filter((id) => !skipped.has(id)),
    selection: { ...optional('rules', chosen), ...optional('skipRules', skippedIds) },
    allow: allowList(read.strings('allow'), names.of('allow'), given.allow, useReference),
    allowFrom:
      read.strings('allow') === undefined
        ? { given: false, name: names.missing('allow') }
        : { given: true, name: names.of('allow') },
    runs: read.integer('runs', DEFAULTS.runs, 1, 10_000),
    seed: read.integer('seed', randomSeed(), 0, 2 ** 31 - 1),
    timeoutMs: read.integer('timeoutMs', DEFAULTS.timeoutMs, 1, 600_000),
    budgetMs: read.integer('budgetMs', DEFAULTS.budgetMs, 1_000, 86_400_000),
    maxRps: read.integer('maxRps', DEFAULTS.maxRps, 0, 100_000),
    concurrency: read.integer('concurrency', DEFAULTS.concurrency, 1, 256),
    ...optional(
      'maxRequests',
      read.raw('maxRequests') === undefined ? undefined : read.integer('maxRequests', 0, 1, 10_000_000),
    ),
    maxResponseBytes: read.integer('maxResponseBytes', DEFAULTS.maxResponseBytes, 1024, 1024 ** 3),
    reportDir: read.text('reportDir') ?? DEFAULTS.reportDir,
    ...optional('har', read.path('har')),
    ...optional('bundle', read.path('bundle')),
    ...optional('baseline', read.text('baseline')),
    updateBaseline: read.flag('updateBaseline'),
    requireJudged: read.flag('requireJudged'),
    dryRun: read.flag('dryRun'),
    ...optional('shard', read.shard()),
    network: resolveNetwork(networkGiven(read), (key) => names.of(key), {
      proxied: !useReference,
      ...optional('nodeExtraCaCerts', options.nodeExtraCaCerts),
    }),
    headers: headersOf(given, names),
    names: givenNames(given, names),
  };
  read.flag('verbose');
  refuseSocks(
    API_LIST.flatMap((api) => config[api.name]?.baseUrl ?? []),
    config.network.proxy,
  );
  if (config.updateBaseline && !config.baseline) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${names.of('updateBaseline')} needs ${names.of('baseline')} FILE: name the file to write.`,
    );
  }
  return deepFreeze(config);
}

/** Each target and header setting given, by its variable, as the caller named it. */
function givenNames(given: GivenSettings, names: SettingNames): Record<string, string> {
  const keys = [
    ...[...TARGET_KEYS].map(([variable, key]) => [variable, key] as const),
    ...HEADER_SETTINGS.map(({ variable, key }) => [variable, key] as const),
  ];
  return Object.fromEntries(
    keys.flatMap(([variable, key]) => (given[key] === undefined ? [] : [[variable, names.of(key)]])),
  );
}

/** Each API's headers from the settings that give them, each checked under the name the caller gave it. */
function headersOf(given: GivenSettings, names: SettingNames): RunHeaders {
  const parsed = Object.fromEntries(
    HEADER_SETTINGS.flatMap(({ key }) =>
      given[key] === undefined ? [] : [[key, parseHeaders(given[key], names.of(key))]],
    ),
  );
  return runHeaders(
    parsed,
    API_LIST.map((api) => api.name),
  );
}

/** The network settings given: the files as paths, the passphrase as given, the proxies as text. */
function networkGiven(read: SettingsReader): NetworkGiven {
  return {
    ...optional('ca', read.text('ca')),
    ...optional('clientCert', read.text('clientCert')),
    ...optional('clientKey', read.text('clientKey')),
    ...optional('clientKeyPassphrase', read.raw('clientKeyPassphrase')),
    ...optional('httpsProxy', read.raw('httpsProxy')),
    ...optional('httpProxy', read.raw('httpProxy')),
    ...optional('allProxy', read.raw('allProxy')),
    ...optional('noProxy', read.raw('noProxy')),
  };
}

/** Reads a settings object's values, whatever their type, into the types a RunConfig holds, naming a bad one. */
class SettingsReader {
  constructor(
    private readonly given: Readonly<Record<string, unknown>>,
    private readonly names: SettingNames,
  ) {}

  /** A value given as text (a number is taken as its digits). */
  raw(key: SettingKey): string | undefined {
    const value = this.given[key];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    throw this.invalid(key, 'a string', value);
  }

  /** Text with its spaces trimmed; given empty, not given. */
  text(key: SettingKey): string | undefined {
    return this.raw(key)?.trim() || undefined;
  }

  /** A list: an array of strings, or one string of comma-separated items. */
  strings(key: SettingKey): string[] | undefined {
    const value = this.given[key];
    if (value === undefined) return undefined;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      return value.length === 0 ? undefined : (value as string[]);
    if (typeof value === 'string') return value.split(',');
    throw this.invalid(key, 'a list of strings', value);
  }

  flag(key: SettingKey): boolean {
    const value = this.given[key];
    if (value === undefined || typeof value === 'boolean') return value === true;
    throw this.invalid(key, 'true or false', value);
  }

  integer(key: SettingKey, fallback: number, min: number, max: number): number {
    const value = this.given[key];
    if (value === undefined) return fallback;
    const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
    if (text === undefined || !/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `${this.names.of(key)} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`,
      );
    }
    return Number(text);
  }

  /** An output file or folder's absolute path; given empty, a CONFIG_INVALID error naming it. */
  path(key: SettingKey): string | undefined {
    if (this.given[key] === undefined) return undefined;
    const value = this.text(key);
    if (value === undefined)
      throw new HarnessError('CONFIG_INVALID', `${this.names.of(key)} needs a path: name the file or folder to write.`);
    return resolve(value);
  }

  /** `i/n`, or `{ index, count }`. */
  shard(): Shard | undefined {
    const value = this.given.shard;
    if (value === undefined) return undefined;
    const { index, count } =
      typeof value === 'object' && value !== null
        ? (value as Partial<Shard>)
        : Object.fromEntries(
            [...(/^\s*(\d+)\/(\d+)\s*$/.exec(String(value))?.slice(1) ?? [])].map((n, i) => [
              i === 0 ? 'index' : 'count',
              Number(n),
            ]),
          );
    if (!Number.isInteger(index) || !Number.isInteger(count) || count! < 1 || index! < 1 || index! > count!) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `${this.names.of('shard')} must be i/n with 1 <= i <= n, such as 1/3, not ${JSON.stringify(value)}.`,
      );
    }
    return { index: index!, count: count! };
  }

  private invalid(key: SettingKey, wanted: string, value: unknown): HarnessError {
    return new HarnessError('CONFIG_INVALID', `${this.names.of(key)} must be ${wanted}, not ${JSON.stringify(value)}.`);
  }
}

/**
 * Returns a copy of a config pointed at the embedded reference target: every API's target from the settings the
 * target gives under the variables a user would set, resolved as a user's are. Throws when it serves not every API.
 */
export function withTargets(config: RunConfig, settings: Env): RunConfig {
  const targets = resolveTargets(givenTargetSettings({}, settings), KEY_NAMES);
  const missing = API_LIST.filter((api) => !targets[api.name]).map((api) => api.name);
  if (missing.length > 0) throw new Error(`it serves no ${missing.join(' or ')} API`);
  // Only the APIs the run may send to (`--api`); the others keep the reason they are left out.
  const chosen = Object.fromEntries(config.apis.map((api) => [api, targets[api]]));
  return deepFreeze({ ...config, ...chosen, unconfigured: config.unconfigured, names: {} });
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * The target of each API from the target settings given, as its descriptor names the fields: a setting given empty,
 * credentials and ids without their API's base URL, or a required one missing, is a CONFIG_MISSING error naming the
 * variable to set.
 */
function resolveTargets(given: ReadonlyMap<string, GivenSetting>, names: SettingNames): Targets {
  const keyOf = (variable: string): SettingKey => TARGET_KEYS.get(variable) as SettingKey;
  for (const { name, value, setting } of given.values()) {
    if (value.trim() === '') {
      // In GitHub Actions, an undefined repository variable comes as an empty one.
      const actions =
        name === setting.variable
          ? ` (in GitHub Actions, \`\${{ vars.${setting.variable} }}\` is empty when the repository variable is not ` +
            'defined)'
          : '';
      throw new HarnessError('CONFIG_MISSING', `${name} is set but empty: give it a value, or unset it${actions}.`);
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
        `${names.missing(keyOf(base.variable))} is not set, but ${without.join(', ')} ` +
          `${without.length === 1 ? 'is' : 'are'}: set ${names.of(keyOf(base.variable))} to the base URL of the ` +
          `${api} API ` +
          `(its ${base.prefix}/... paths go under it), or unset ${without.length === 1 ? 'it' : 'them'} to ` +
          `leave the ${api} API out of the run.`,
      );
    }
  }
  const nameOf = ({ variable }: SettingName): string =>
    given.get(variable)?.name ?? (TARGET_KEYS.has(variable) ? names.missing(keyOf(variable)) : variable);
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

function ruleList(
  value: readonly string[] | undefined,
  name: string,
  known: ReadonlySet<string>,
): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.map((id) => id.trim()).filter(Boolean);
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

/** The APIs under test: those given (names of `API_LIST`), else every API. */
function apiList(value: readonly string[] | undefined, name: string, given: unknown): ApiName[] {
  const all = API_LIST.map((api) => api.name);
  if (value === undefined) return all;
  const apis = [...new Set(value.map((a) => a.trim()).filter(Boolean))];
  const bad = apis.filter((a) => !(all as string[]).includes(a));
  if (bad.length > 0 || apis.length === 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} takes ${all.join(' or ')} (or both, comma-separated); ${JSON.stringify(given)} is not one` +
        `${bad.length === 1 ? didYouMean(bad[0]!, all) : ''}.`,
    );
  }
  return all.filter((api) => apis.includes(api));
}

/** The probe classes given, or the default: every class against the embedded reference, else read and write. */
function allowList(
  value: readonly string[] | undefined,
  name: string,
  given: unknown,
  useReference: boolean,
): ProbeClass[] {
  if (value === undefined) return [...(useReference ? DEFAULTS.allowOnReference : DEFAULTS.allow)];
  const classes = value.map((c) => c.trim()).filter(Boolean);
  const bad = classes.filter((c) => !(PROBE_CLASSES as readonly string[]).includes(c));
  if (bad.length > 0 || classes.length === 0) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${name} takes a list of ${PROBE_CLASSES.join(', ')}; ${JSON.stringify(given)} is not one.`,
    );
  }
  return classes as ProbeClass[];
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** Returns a copy of a config with the planner's choice of examples per property. */
export function withRuns(config: RunConfig, runs: number): RunConfig {
  return runs === config.runs ? config : deepFreeze({ ...config, runs });
}
