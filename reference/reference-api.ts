import type { ApiName, AuthVerdict } from './hooks.ts';
import type { Route } from './route.ts';
import type { Store } from './store.ts';

/**
 * One API the reference target serves, as data: its routes, how it checks credentials and words its answers, and the
 * settings that point a run at it.
 */
export interface ReferenceApi {
  readonly name: ApiName;
  readonly routes: readonly Route[];
  /** Checks a request's `Authorization` header against the target's credentials of this API. */
  readonly verify: (header: string | undefined, store: Store, now: Date) => AuthVerdict;
  /** The `WWW-Authenticate` challenge of its 401s. */
  readonly challenge: string;
  /**
   * True when it wraps every answer in `{ status, requestId, result }` (an error in `{ status, requestId, error }`);
   * else a result is sent as its route gives it, and an error as `{ message }`.
   */
  readonly enveloped: boolean;
  /** The option of `startReference` that names its port, when it has one (else any free port). */
  readonly portOption?: 'managementPort' | 'alertsPort';
  /** The settings a run against it needs, under the harness's environment variables (INTERFACE.md). */
  readonly settings: (store: Store, baseUrl: string) => Readonly<Record<string, string>>;
  /** Settings `conformance reference` prints beside those, which the embedded run leaves for the run to choose. */
  readonly suggested?: (store: Store) => Readonly<Record<string, string>>;
}
