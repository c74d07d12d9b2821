import type { ApiName } from './spec.ts';

/** One setting that points the run at a target: its environment variable, its flag if any, and its API. */
export interface TargetSetting {
  readonly variable: string;
  readonly flag?: string;
  readonly api: ApiName;
}

/** Every target setting; any one of them present means a target is configured and the embedded one is not started. */
export const TARGET_SETTINGS: readonly TargetSetting[] = Object.freeze(
  [
    { variable: 'MANAGEMENT_BASE_URL', flag: 'management-url', api: 'management' },
    { variable: 'MANAGEMENT_KEY_ID', api: 'management' },
    { variable: 'MANAGEMENT_KEY_SECRET', api: 'management' },
    { variable: 'ORGANIZATION_ID', flag: 'organization', api: 'management' },
    { variable: 'SERVICE_ID', flag: 'service', api: 'management' },
    { variable: 'BACKUP_ID', flag: 'backup', api: 'management' },
    { variable: 'ALERTS_BASE_URL', flag: 'alerts-url', api: 'alerts' },
    { variable: 'ALERTS_TOKEN', api: 'alerts' },
    { variable: 'ALERT_ID', flag: 'alert', api: 'alerts' },
  ].map((setting) => Object.freeze(setting as TargetSetting)),
);

/** Per API: the variable of its base URL, its flag, and the path prefix the harness appends to it. */
export const BASE_URL_SETTING: Readonly<Record<ApiName, { readonly variable: string; readonly flag: string; readonly prefix: string }>> = Object.freeze({
  management: Object.freeze({ variable: 'MANAGEMENT_BASE_URL', flag: 'management-url', prefix: '/v1' }),
  alerts: Object.freeze({ variable: 'ALERTS_BASE_URL', flag: 'alerts-url', prefix: '/api/v2' }),
});

/** A target setting as the user gave it: its raw value and the name they gave it under (`--flag` or `VARIABLE`). */
export interface GivenSetting {
  readonly setting: TargetSetting;
  readonly value: string;
  readonly name: string;
}

/** The target settings present in flags or environment (a flag wins), keyed by variable; empty values included. */
export function givenTargetSettings(flags: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): ReadonlyMap<string, GivenSetting> {
  const given = new Map<string, GivenSetting>();
  for (const setting of TARGET_SETTINGS) {
    const fromFlag = setting.flag === undefined ? undefined : flags[setting.flag];
    if (typeof fromFlag === 'string') given.set(setting.variable, { setting, value: fromFlag, name: `--${setting.flag}` });
    else if (env[setting.variable] !== undefined) given.set(setting.variable, { setting, value: env[setting.variable]!, name: setting.variable });
  }
  return given;
}
