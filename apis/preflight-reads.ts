/** The harness error codes a preflight stops a run with (core/errors.ts lists them among all the harness's codes). */
export type PreflightCode = 'CREDENTIALS_REFUSED' | 'TARGET_UNKNOWN_ID' | 'NOT_THE_API' | 'ALERT_NOT_UPDATABLE';

/**
 * What a preflight message is worded from: the API's target, the answer as the preflight saw it, and the names of the
 * settings the user set.
 */
export interface PreflightWords {
  /** The API's target as the run's config holds it: its base URL, credentials and ids, by field. */
  readonly target: Readonly<Record<string, string | undefined>>;
  /** The answer in short, secrets removed: `GET ... answered 404 (text/plain): "no such org"`. */
  readonly seen: string;
  /** The answer's HTTP status, when one came. */
  readonly status?: number;
  /** The URL the read was sent to. */
  readonly url: string;
  /** The API's base URL setting as the user named it (`--management-url`, `MANAGEMENT_BASE_URL`), and its value. */
  readonly baseUrlVariable: string;
  readonly baseUrl: string;
  /** The API's credential settings as the user named them: `MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET`. */
  readonly credentials: string;
  /** A setting of the API's target by its field (`serviceId`), as the user named it: `--service`, `SERVICE_ID`. */
  readonly name: (field: string) => string;
  /** The path prefix of the API's operations (`/v1`). */
  readonly pathPrefix: string;
  /** For a read sent again without credentials: that answer's status, or `no answer`. */
  readonly anonymous?: string;
  /** For a read that looks for an id in its list: how many items the list held. */
  readonly listed?: number;
}

/** A line or message of the preflight, worded from what a read saw. */
export type PreflightMessage = (words: PreflightWords) => string;

/** What a 404 to a read means: a base URL that is not the API, or an id the target does not know. */
export type PreflightNotFound =
  /** `notTheApi` alone: a 404 is NOT_THE_API. Both: the read is sent again without credentials, and a 404 again is. */
  | { readonly notTheApi: PreflightMessage; readonly unknownIds?: PreflightMessage }
  /** `unknownIds` alone: a 404 is TARGET_UNKNOWN_ID. */
  | { readonly unknownIds: PreflightMessage; readonly notTheApi?: undefined };

/** An id that the preflight looks for, when it is set, among the items a list read returns (by their `id`). */
export interface ListedId {
  /** The id's field, as its `IdSetting` names it. */
  readonly field: string;
  /** What the dry run says the read checks of it: `ALERT_ID listed and updatable`. */
  readonly plan: string;
  /** What the preflight's line says once it is found: `alert 1f2e updatable`. */
  readonly found: PreflightMessage;
  /** The TARGET_UNKNOWN_ID message when the list lacks it. */
  readonly notListed: PreflightMessage;
  /** Why the run may not use the listed item, and the harness error it then stops with. */
  readonly unusable?: {
    /** Why the run may not use the item, or undefined when it may. */
    readonly reason: (item: Readonly<Record<string, unknown>>) => string | undefined;
    readonly code: PreflightCode;
    readonly message: (words: PreflightWords, reason: string) => string;
  };
}

/**
 * One GET of an API's preflight, sent with the run's own settings before the first probe, so that a configuration
 * mistake (credentials refused, an id the target does not know, a base URL that is not the API) stops the run with exit
 * code 2 rather than showing as contract failures.
 */
export interface PreflightRead {
  /** A GET of the API's spec; the target's ids fill its path parameters. */
  readonly operationId: string;
  /** The ids it checks (their fields): a 404 says the target does not know them; it is left out when one is not set. */
  readonly ids: readonly string[];
  /** Its query, from the time it is sent. */
  readonly query?: (now: Date) => Readonly<Record<string, string>>;
  /** What the dry run says it GETs: `usageCost of the past day`. */
  readonly gets: string;
  /** What a 2xx to it proves, as the preflight's line says it: `credentials, organization`. */
  readonly proves: string;
  /** When it is left out, what the preflight's line and the dry run say is not checked then. */
  readonly leftOut?: { readonly line: string; readonly plan: string };
  /** The CREDENTIALS_REFUSED message for a 401 or a 403. */
  readonly refused: PreflightMessage;
  readonly notFound: PreflightNotFound;
  /** An id it looks for in the list it reads. */
  readonly finds?: ListedId;
}
