import * as fc from 'fast-check';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const LINE = fc.string({ unit: fc.constantFrom(...BASE64), minLength: 64, maxLength: 64 });

/** PEM-shaped CA certificate strings (a base64 body between BEGIN and END CERTIFICATE lines); not real certificates. */
export function caCertificate(constraints: { maxLines?: number } = {}): fc.Arbitrary<string> {
  const { maxLines = 3 } = constraints;
  return fc
    .array(LINE, { minLength: 1, maxLength: Math.max(1, maxLines) })
    .map((lines) => ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join('\n'));
}
