/** Stable codes of the harness's own errors; each maps to exit code 2. */
export type HarnessErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_MISSING'
  | 'SPEC_INVALID'
  | 'TARGET_UNREACHABLE'
  | 'TLS_UNTRUSTED'
  | 'TLS_NAME_MISMATCH'
  | 'TLS_EXPIRED'
  | 'TLS_NOT_YET_VALID'
  | 'CLIENT_CERT_REQUIRED'
  | 'PROXY_REFUSED'
  | 'PROXY_UNREACHABLE'
  | 'PROXY_UNSUPPORTED'
  | 'CREDENTIALS_REFUSED'
  | 'TARGET_UNKNOWN_ID'
  | 'NOT_THE_API'
  | 'ALERT_NOT_UPDATABLE'
  | 'BASELINE_INVALID'
  | 'FINDINGS_INVALID'
  | 'BUNDLE_INVALID'
  | 'REFERENCE_FAILED';

/** An error of the harness itself (not of the target): a stable code and a message that says what to do. */
export class HarnessError extends Error {
  readonly code: HarnessErrorCode;

  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
  }
}

/** True when a value is a HarnessError, also across module instances. */
export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof Error && value.name === 'HarnessError' && typeof (value as HarnessError).code === 'string';
}
