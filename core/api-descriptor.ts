import type { RunConfig } from './config.ts';
import type { ApiName } from './spec.ts';

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

/** What the harness knows of one API beside its spec: the spec's file, its security scheme, its envelope and its target settings. */
export interface ApiDescriptor {
  readonly name: ApiName;
  /** Its spec, a file of `openapi/`. */
  readonly specFile: string;
  /** The spec's security scheme (`components.securitySchemes`) that its operations require; loading checks that the spec names it with this HTTP scheme. */
  readonly auth: { readonly securityScheme: string; readonly scheme: AuthScheme };
  readonly envelope: Envelope;
  /** The settings that point a run at it: the base URL (to which its paths, all under `pathPrefix`, are appended), the credentials as its scheme takes them, and the ids. */
  readonly settings: {
    readonly baseUrl: Required<SettingName>;
    readonly pathPrefix: string;
    /** The variables of the credentials: a user and a password for `basic`, a token for `bearer`. */
    readonly credentials: { readonly user: string; readonly password: string } | { readonly token: string };
    readonly ids: readonly SettingName[];
  };
  /** The run's credentials for this API, when the run targets it. */
  credentialsOf(config: RunConfig): Credentials | undefined;
}

/** The `Authorization` header that carries credentials in a scheme. */
export function authorizationHeader(scheme: AuthScheme, credentials: Credentials): string {
  if (scheme === 'basic' && 'user' in credentials) return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  if (scheme === 'bearer' && 'token' in credentials) return `Bearer ${credentials.token}`;
  throw new Error(`credentials of the wrong shape for the ${scheme} scheme`);
}

/** The run's own `Authorization` header for an API, or undefined when the run does not target it. */
export function runAuthorization(descriptor: ApiDescriptor, config: RunConfig): string | undefined {
  const credentials = descriptor.credentialsOf(config);
  return credentials && authorizationHeader(descriptor.auth.scheme, credentials);
}

/** The run's secret credential values (passwords, tokens) for an API, which are redacted wherever they appear. */
export function secretCredentials(descriptor: ApiDescriptor, config: RunConfig): string[] {
  const credentials = descriptor.credentialsOf(config);
  if (!credentials) return [];
  return ['token' in credentials ? credentials.token : credentials.password].filter((value) => value !== '');
}

/** Every target setting of an API: its base URL, its credentials, its ids. */
export function settingsOf(descriptor: ApiDescriptor): SettingName[] {
  const { baseUrl, credentials, ids } = descriptor.settings;
  const credentialVariables = 'token' in credentials ? [credentials.token] : [credentials.user, credentials.password];
  return [baseUrl, ...credentialVariables.map((variable) => ({ variable })), ...ids];
}

/** The variables of an API's credentials, as a message names them: `MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET`, `ALERTS_TOKEN`. */
export function credentialVariables(descriptor: ApiDescriptor): string {
  const variables = descriptor.settings.credentials;
  return 'token' in variables ? variables.token : `${variables.user} and ${variables.password}`;
}
