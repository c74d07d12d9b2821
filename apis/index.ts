import {
  type Credentials,
  type IdSetting,
  otherCredentialsIn,
  type ReportedTargetOf,
  reportedTarget,
  secretCredentials,
  type TargetFlagOf,
  type TargetOf,
  type TargetsOf,
  targetOf,
} from './descriptor.ts';
import { ALERTS_API } from './alerts.ts';
import { MANAGEMENT_API } from './management.ts';

/** Every API's descriptor, in the order runs, reports and the help list them: the one list an API is added to. */
export const API_LIST = Object.freeze([MANAGEMENT_API, ALERTS_API] as const);

type Api = (typeof API_LIST)[number];

/** An API's name, as its descriptor gives it. */
export type ApiName = Api['name'];

/** The descriptor of each API, by name. */
export const APIS = Object.freeze(Object.fromEntries(API_LIST.map((api) => [api.name, api]))) as {
  readonly [A in Api as A['name']]: A;
};

/** Each API's target as the run's config holds it (fields named by its descriptor). */
export type ApiTargets = { readonly [A in Api as A['name']]: TargetOf<A> };

/** What the reports show of each API's target the run tested: its base URL and ids. */
export type ReportedTargets = { readonly [A in Api as A['name']]?: ReportedTargetOf<A> };

/** A flag of a target setting of any API (`--management-url`, `--alert`, ...), without its dashes. */
export type TargetFlag = TargetFlagOf<Api>;

/** The run's credentials of each API it targets. */
export function runCredentials(config: TargetsOf): Partial<Record<ApiName, Credentials>> {
  const credentials: Partial<Record<ApiName, Credentials>> = {};
  for (const api of API_LIST) {
    const given = api.credentialsOf(config);
    if (given) credentials[api.name] = given;
  }
  return credentials;
}

/** The other tenant's credentials of each API whose `OTHER_*` settings the run sets. */
export function runOtherCredentials(config: TargetsOf): Partial<Record<ApiName, Credentials>> {
  const credentials: Partial<Record<ApiName, Credentials>> = {};
  for (const api of API_LIST) {
    const given = otherCredentialsIn(api, targetOf(api, config));
    if (given) credentials[api.name] = given;
  }
  return credentials;
}

/** The values of every path parameter the run's targets fill (`organizationId`, ...), by the parameter's name. */
export function runPathParameters(config: TargetsOf): Record<string, string> {
  const params: Record<string, string> = {};
  for (const api of API_LIST) {
    for (const { field, pathParameter } of api.settings.ids as readonly IdSetting[]) {
      const value = targetOf(api, config)?.[field];
      if (pathParameter && value) params[field] = value;
    }
  }
  return params;
}

/** The run's secret credential values of every API (passwords, tokens), which are redacted wherever they appear. */
export function runSecrets(config: TargetsOf): string[] {
  return API_LIST.flatMap((api) => secretCredentials(api, config));
}

/** What the reports show of the targets a run tested (base URLs and ids, no credentials), in `API_LIST` order. */
export function reportedTargets(config: TargetsOf): ReportedTargets {
  return Object.fromEntries(
    API_LIST.flatMap((api) => {
      const target = targetOf(api, config);
      return target ? [[api.name, reportedTarget(api, target)]] : [];
    }),
  );
}
