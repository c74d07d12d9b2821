import { API_LIST } from '../apis/index.ts';
import { settingsOf } from '../apis/descriptor.ts';
import type { ApiName } from '../apis/index.ts';

/** One setting that points the run at a target: its environment variable, its flag if any, and its API. */
export interface TargetSetting {
  readonly variable: string;
  readonly flag?: string;
  readonly api: ApiName;
}

/**
 * Every target setting, from the APIs' descriptors; any one of them present means a target is configured and the
 * embedded one is not started.
 */
export const TARGET_SETTINGS: readonly TargetSetting[] = Object.freeze(
  API_LIST.flatMap((api) => settingsOf(api).map((setting) => Object.freeze({ ...setting, api: api.name }))),
);

/** Where an API's base URL is set, and the path prefix the harness appends to it. */
export interface BaseUrlSetting {
  readonly variable: string;
  readonly flag: string;
  readonly prefix: string;
}

/** Per API: the variable of its base URL, its flag, and the path prefix the harness appends to it. */
export const BASE_URL_SETTING: Readonly<Record<ApiName, BaseUrlSetting>> = Object.freeze(
  Object.fromEntries(
    API_LIST.map(({ name, settings }) => [
      name,
      Object.freeze({ variable: settings.baseUrl.variable, flag: settings.baseUrl.flag, prefix: settings.pathPrefix }),
    ]),
  ) as Record<ApiName, BaseUrlSetting>,
);

/** A target setting as the user gave it: its raw value and the name they gave it under (`--flag` or `VARIABLE`). */
export interface GivenSetting {
  readonly setting: TargetSetting;
  readonly value: string;
  readonly name: string;
}

/** The target settings present in flags or environment (a flag wins), keyed by variable; empty values included. */
export function givenTargetSettings(
  flags: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): ReadonlyMap<string, GivenSetting> {
  const given = new Map<string, GivenSetting>();
  for (const setting of TARGET_SETTINGS) {
    const fromFlag = setting.flag === undefined ? undefined : flags[setting.flag];
    if (typeof fromFlag === 'string')
      given.set(setting.variable, { setting, value: fromFlag, name: `--${setting.flag}` });
    else if (env[setting.variable] !== undefined)
      given.set(setting.variable, { setting, value: env[setting.variable]!, name: setting.variable });
  }
  return given;
}
