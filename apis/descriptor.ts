import type { PreflightMessage, PreflightRead } from './preflight-reads.ts';

/**
 * A run's config as the descriptors read it (settings/config.ts `RunConfig`): each API's target under the API's name,
 * with the fields its description names (`TargetOf`); typed loosely here so that apis/ imports nothing of settings/.
 */
export type TargetsOf = object;

/** The HTTP authentication schemes an API's spec may name (`type: http`, `scheme: basic` or `bearer`). */
export type AuthScheme = 'basic' | 'bearer';

/** The credentials of a request, as its API's scheme takes them. */
export type Credentials = { readonly user: string; readonly password: string } | { readonly token: string };

/** Where a response carries its payload, and the envelope fields beside it when the API has that envelope. */
export interface Envelope {
  /** The top-level property that holds the payload (`result`, `data`). */
  readonly payload: string;
  /** The property that repeats the HTTP status, when the envelope has one. */
  readonly status?: string;
  /** The property that carries a request id unique to each response, when the envelope has one. */
  readonly requestId?: string;
}

/** A setting that points the run at a target: its environment variable and its flag, if it has one. */
export interface SettingName {
  readonly variable: string;
  readonly flag?: string;
}

/**
 * A setting of an API's target beside its base URL: the field of the target (in the run's config) that it fills, and
 * `about`, what it is, which the help prints and which a missing required setting's error words as "it is the <about>".
 */
export interface TargetField extends SettingName {
  readonly field: string;
  readonly about: string;
}

/**
 * An id of a resource the run works on: a required one is a CONFIG_MISSING error when its API is under test without it.
 */
export interface IdSetting extends TargetField {
  readonly required: boolean;
  /** True when it fills the path parameter named as its field in every request of its API that has one. */
  readonly pathParameter?: boolean;
  /** What it names, as the reports word it beside its value: `organization`. */
  readonly label: string;
  /** `uuid` when the API's ids of this kind are uuids: a read that neither finds nor refuses one says so. */
  readonly format?: 'uuid';
  /**
   * For an id no preflight read may check: the operation whose every valid request gets a 404 when the target does not
   * know it (the preflight sends one, a suite's `ConfirmingWrite`, after its reads), what its 2xx proves, as the
   * preflight's line says it, the TARGET_UNKNOWN_ID message for its 404, and the settings error a run that saw only
   * 404s to it reports (`name`: the setting as the user named it).
   */
  readonly unknownWhen?: {
    readonly operationId: string;
    readonly proves: string;
    readonly notFound: PreflightMessage;
    readonly message: (notFound: number, name: string) => string;
  };
}

/**
 * The credential settings of an API, as its scheme takes them, and `about`, what they are together (the help's line for
 * them).
 */
export type CredentialSettings =
  | { readonly about: string; readonly user: TargetField; readonly password: TargetField }
  | { readonly about: string; readonly token: TargetField };

/**
 * Another tenant's settings (a key of another organization, a token of another team), for `access.other-tenant`: all
 * optional, given all or none; `ids` are the other tenant's own ids (its organization), each named after the id of the
 * run's that it stands for.
 */
export interface OtherTenantSettings {
  readonly about: string;
  readonly credentials: CredentialSettings;
  readonly ids: readonly (TargetField & { readonly for: string })[];
}

/**
 * What the harness knows of one API beside its spec, as plain data: the spec's file, its security scheme, its envelope
 * and its target settings.
 */
export interface ApiDescription {
  readonly name: string;
  /** Its spec, a file of `openapi/`. */
  readonly specFile: string;
  /**
   * The spec's security scheme (`components.securitySchemes`) that its operations require; loading checks that the spec
   * names it with this HTTP scheme.
   */
  readonly auth: { readonly securityScheme: string; readonly scheme: AuthScheme };
  readonly envelope: Envelope;
  /**
   * The settings that point a run at it: the base URL (to which its paths, all under `pathPrefix`, are appended), the
   * credentials as its scheme takes them, and the ids.
   */
  readonly settings: {
    readonly baseUrl: Required<SettingName>;
    readonly pathPrefix: string;
    readonly credentials: CredentialSettings;
    readonly ids: readonly IdSetting[];
    readonly other?: OtherTenantSettings;
  };
  /** The GETs that prove, before the first probe, that a base URL is this API and the settings are accepted. */
  readonly preflight: readonly PreflightRead[];
  /** What a run stopped at once may have left changed, by the probe class that changes it: the command warns of it. */
  readonly leftChanged?: readonly LeftChanged[];
}

/** An API's target as the run's config holds it, by field (its base URL, credentials and ids), typed loosely. */
export type TargetFields = Readonly<Record<string, string | undefined>>;

/** Something a run of an API may leave changed when it is stopped at once, and the warning that says what to check. */
export interface LeftChanged {
  /** The probe class (`--allow`) of the requests that change it. */
  readonly allow: 'write' | 'disruptive';
  readonly warning: (target: TargetFields) => string;
}

/** An API's description with what it reads of a run's config. */
export interface ApiDescriptor extends ApiDescription {
  /** The run's credentials for this API, when the run targets it. */
  credentialsOf(config: TargetsOf): Credentials | undefined;
}

type FieldOf<S> = S extends { readonly field: infer F extends string } ? F : never;
// Not distributive: a descriptor's credentials, met with the wide union of ApiDescription, are a union of which only
// the scheme the descriptor names holds in every member.
type CredentialFieldOf<C> = [C] extends [{ readonly token: infer T }]
  ? FieldOf<T>
  : [C] extends [{ readonly user: infer U; readonly password: infer P }]
    ? FieldOf<U> | FieldOf<P>
    : never;
type IdOf<D extends ApiDescription> = D['settings']['ids'][number];

/** The fields of an API's credentials in its target, typed from its description: `keyId | keySecret`, `token`. */
export type CredentialFieldsOf<D extends ApiDescription> = CredentialFieldOf<D['settings']['credentials']>;

/**
 * An API's target as the run's config holds it, typed from its description: the base URL, and each credential and id
 * under the field it names (optional ids optional).
 */
export type TargetOf<D extends ApiDescription> = ReportedTargetOf<D> & {
  readonly [F in CredentialFieldsOf<D>]: string;
} & { readonly [F in OtherFieldsOf<D>]?: string };

/** The fields of another tenant's settings in an API's target, typed from its description. */
export type OtherFieldsOf<D extends ApiDescription> = D['settings'] extends {
  readonly other: infer O extends OtherTenantSettings;
}
  ? CredentialFieldOf<O['credentials']> | FieldOf<O['ids'][number]>
  : never;

/** What the reports show of an API's target: its base URL and each id (optional ids optional), no credentials. */
export type ReportedTargetOf<D extends ApiDescription> = { readonly baseUrl: string } & {
  readonly [S in IdOf<D> as S extends { readonly required: true } ? S['field'] : never]: string;
} & { readonly [S in IdOf<D> as S extends { readonly required: true } ? never : S['field']]?: string };

/** The flags of an API's target settings, typed from its description. */
export type TargetFlagOf<D extends ApiDescription> = D['settings']['baseUrl']['flag'] | NonNullable<IdOf<D>['flag']>;

/**
 * An API's descriptor from its description (frozen, literal types kept, so that its target's type and flags follow from
 * it).
 */
export function describeApi<const D extends ApiDescription>(description: D): D & ApiDescriptor {
  return frozen({ ...description, credentialsOf: (config: TargetsOf) => credentialsIn(description, config) });
}

/** A value frozen with everything in it: a descriptor is data no run may change. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(Object.freeze(value))) frozen(inner);
  }
  return value;
}

/** An API's target in a run's config, by field, or undefined when the run does not target it. */
export function targetOf(description: ApiDescription, config: TargetsOf): TargetFields | undefined {
  // RunConfig holds each API's target under its name, with the fields its description names (see TargetOf).
  return (config as Readonly<Record<string, TargetFields | undefined>>)[description.name];
}

/** What the reports show of an API's target: its base URL, then each id that is set, in the description's order. */
export function reportedTarget(description: ApiDescription, target: TargetFields): Readonly<Record<string, string>> {
  const ids = description.settings.ids.flatMap(({ field }) => {
    const value = target[field];
    return value ? [[field, value] as const] : [];
  });
  return { baseUrl: target.baseUrl ?? '', ...Object.fromEntries(ids) };
}

/** The variable of an API's id setting by its field (`ALERT_ID` for `alertId`), or the field when it has none. */
export function idVariable(description: ApiDescription, field: string): string {
  return description.settings.ids.find((id) => id.field === field)?.variable ?? field;
}

/** The credentials of an API in a run's config, read from the fields its description names. */
function credentialsIn(description: ApiDescription, config: TargetsOf): Credentials | undefined {
  const target = targetOf(description, config);
  if (!target) return undefined;
  const credentials = description.settings.credentials;
  const value = (setting: TargetField): string => target[setting.field] ?? '';
  return 'token' in credentials
    ? { token: value(credentials.token) }
    : { user: value(credentials.user), password: value(credentials.password) };
}

/**
 * Another tenant's credentials in an API's target (a key of another organization, a token of another team), or
 * undefined when they are not set.
 */
export function otherCredentialsIn(
  description: ApiDescription,
  target: TargetFields | undefined,
): Credentials | undefined {
  const other = description.settings.other;
  if (!target || !other || otherTenantSettings(description).some(({ field }) => !target[field])) return undefined;
  const value = (setting: TargetField): string => target[setting.field] ?? '';
  return 'token' in other.credentials
    ? { token: value(other.credentials.token) }
    : { user: value(other.credentials.user), password: value(other.credentials.password) };
}

/** The `Authorization` header that carries credentials in a scheme. */
export function authorizationHeader(scheme: AuthScheme, credentials: Credentials): string {
  if (scheme === 'basic' && 'user' in credentials)
    return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  if (scheme === 'bearer' && 'token' in credentials) return `Bearer ${credentials.token}`;
  throw new Error(`credentials of the wrong shape for the ${scheme} scheme`);
}

/** The run's own `Authorization` header for an API, or undefined when the run does not target it. */
export function runAuthorization(descriptor: ApiDescriptor, config: TargetsOf): string | undefined {
  const credentials = descriptor.credentialsOf(config);
  return credentials && authorizationHeader(descriptor.auth.scheme, credentials);
}

/**
 * The run's secret credential values (passwords, tokens) for an API, its own and the other tenant's, which are
 * redacted wherever they appear.
 */
export function secretCredentials(descriptor: ApiDescriptor, config: TargetsOf): string[] {
  const target = targetOf(descriptor, config);
  if (!target) return [];
  const { credentials, other } = descriptor.settings;
  return [credentials, ...(other ? [other.credentials] : [])]
    .map((c) => target[('token' in c ? c.token : c.password).field] ?? '')
    .filter((value) => value !== '');
}

/** Every target setting of an API: its base URL, its credentials, its ids, and the other tenant's. */
export function settingsOf(descriptor: ApiDescription): SettingName[] {
  const { baseUrl, ids } = descriptor.settings;
  return [baseUrl, ...credentialSettings(descriptor), ...ids, ...otherTenantSettings(descriptor)];
}

/** The settings of an API's credentials, in order: the user and the password for `basic`, the token for `bearer`. */
export function credentialSettings(descriptor: ApiDescription): TargetField[] {
  return settingsOfCredentials(descriptor.settings.credentials);
}

/** The other tenant's settings of an API, credentials then ids; none when the API has none. */
export function otherTenantSettings(descriptor: ApiDescription): TargetField[] {
  const other = descriptor.settings.other;
  return other ? [...settingsOfCredentials(other.credentials), ...other.ids] : [];
}

function settingsOfCredentials(credentials: CredentialSettings): TargetField[] {
  return 'token' in credentials ? [credentials.token] : [credentials.user, credentials.password];
}

/**
 * The variables of an API's credentials, as a message names them: `MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET`,
 * `ALERTS_TOKEN`.
 */
export function credentialVariables(descriptor: ApiDescription): string {
  return credentialSettings(descriptor)
    .map((setting) => setting.variable)
    .join(' and ');
}
