import * as fc from 'fast-check';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** PEM-shaped CA certificate strings (a base64 body between BEGIN and END CERTIFICATE lines); not real certificates. */
export function caCertificate(constraints: { maxLines?: number } = {}): fc.Arbitrary<string> {
  const { maxLines = 3 } = constraints;
  const line = fc.string({ unit: fc.constantFrom(...BASE64), minLength: 64, maxLength: 64 });
  return fc
    .array(line, { minLength: 1, maxLength: Math.max(1, maxLines) })
    .map((lines) => ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join('\n'));
}
