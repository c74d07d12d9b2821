import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { didYouMean } from '../core/did-you-mean.ts';
import { HarnessError } from '../core/errors.ts';

/** The files read from the working folder when `--config` names none, the first found. */
export const CONFIG_FILE_NAMES = Object.freeze([
  'conformance.config.json',
  'conformance.config.yaml',
  'conformance.config.yml',
]);

/** A settings file as read: its settings (`${NAME}` filled from the environment), where it is, and how it was found. */
export interface SettingsFile {
  readonly path: string;
  /** True when it was found in the working folder under a fixed name, not named by `--config`. */
  readonly found: boolean;
  readonly settings: Readonly<Record<string, unknown>>;
}

/** What a settings file is checked against: the keys a settings object may have, and those it may not hold. */
export interface FileRules {
  readonly keys: readonly string[];
  /** Keys that are credentials, each with the variable it is set in instead. */
  readonly credentials: ReadonlyMap<string, string>;
}

/**
 * The settings file of a run: the one `--config` names (`named`, relative to `cwd`), else the first of
 * `CONFIG_FILE_NAMES` in `cwd`, else none. Its keys are checked (an unknown key names the nearest; a credential is
 * refused) and each `${NAME}` in a string is replaced by the environment variable NAME; any mistake is a
 * CONFIG_INVALID (or, for a variable not set, CONFIG_MISSING) error naming the file and the key.
 */
export function readSettingsFile(
  named: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  rules: FileRules,
): SettingsFile | undefined {
  const found = named === undefined;
  const path = found
    ? CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate))
    : resolve(cwd, named);
  if (path === undefined) return undefined;
  const shown = found ? basename(path) : named!;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `--config ${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
        'name a JSON or YAML file of settings.',
      { cause: error },
    );
  }
  const value = parseFile(text, path, shown);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HarnessError('CONFIG_INVALID', `${shown} must hold an object of settings (such as { "maxRps": 5 }).`);
  const settings: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const variable = rules.credentials.get(key);
    if (variable !== undefined)
      throw new HarnessError(
        'CONFIG_INVALID',
        `${shown} holds ${key}, a credential: a committed file holds none. Set ${variable} in the environment (in ` +
          "CI, from the workflow's secrets) and remove the key.",
      );
    if (!rules.keys.includes(key))
      throw new HarnessError(
        'CONFIG_INVALID',
        `${shown} has the key ${JSON.stringify(key)}, which is not a setting${didYouMean(key, rules.keys)}; the ` +
          "keys are the library's settings (the flags of `conformance run` in camelCase).",
      );
    settings[key] = withVariables(item, env, `${key} in ${shown}`);
  }
  return { path, found, settings };
}

function parseFile(text: string, path: string, shown: string): unknown {
  try {
    return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    const kind = /\.ya?ml$/i.test(path) ? 'YAML' : 'JSON';
    const said = (error as Error).message.split('\n')[0];
    throw new HarnessError('CONFIG_INVALID', `${shown} is not valid ${kind}: ${said}.`, { cause: error });
  }
}

/** A value with each `${NAME}` of its strings (at any depth) replaced by the variable NAME, which must be set. */
function withVariables(value: unknown, env: Readonly<Record<string, string | undefined>>, where: string): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const set = env[name];
      if (set === undefined)
        throw new HarnessError(
          'CONFIG_MISSING',
          `${where} reads the environment variable ${name}, which is not set: set it (in CI, from the workflow's ` +
            'secrets or variables).',
        );
      return set;
    });
  if (Array.isArray(value)) return value.map((item) => withVariables(item, env, where));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withVariables(v, env, where)]));
  return value;
}
