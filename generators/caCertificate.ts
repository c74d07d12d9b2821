import * as fc from 'fast-check';

/**
 * Self-signed CA certificates (EC P-256, valid to 2036; their private keys were thrown away when they were made): real
 * X.509 in PEM, so that a target that parses the certificate it is given (as a broker client or schema registry client
 * must, to trust it) accepts them. The documents type `caCertificate` as a string only; a PEM body of random base64
 * would be refused by any target that reads it.
 */
const CA_CERTIFICATES: readonly string[] = Object.freeze([
  [
    '-----BEGIN CERTIFICATE-----',
    'MIIB4zCCAYmgAwIBAgIUMMpS+oFZJ63ih+xy1TvxElqmCPgwCgYIKoZIzj0EAwIw',
    'PzEeMBwGA1UEAwwVQ29uZm9ybWFuY2UgVGVzdCBDQSAxMR0wGwYDVQQKDBRjb250',
    'cmFjdC1jb25mb3JtYW5jZTAeFw0yNjEyMDQxOTA4MTFaFw0zNjEyMDExOTA4MTFa',
    'MD8xHjAcBgNVBAMMFUNvbmZvcm1hbmNlIFRlc3QgQ0EgMTEdMBsGA1UECgwUY29u',
    'dHJhY3QtY29uZm9ybWFuY2UwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASPZqDY',
    'Om9/vfiav2KSY912pxwOzEoDJ727hCVXKdbH0gvUHTHuCcyLjhzqqfbwfz7G9Pjk',
    'U2Lmcq+VO8XcgXuEo2MwYTAdBgNVHQ4EFgQUHCQhGo2tKSuVeJaT66Krp59x2mYw',
    'HwYDVR0jBBgwFoAUHCQhGo2tKSuVeJaT66Krp59x2mYwDwYDVR0TAQH/BAUwAwEB',
    '/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSAAwRQIhALR1jGRn0CmNswvr',
    '33jP66MZ0Jr3oUCYUSv+DzGRo1PFAiAdbVEGuCvAk+yxu8hfOj5gnYAaQbztvX6B',
    'aXlqiTe5CA==',
    '-----END CERTIFICATE-----',
  ].join('\n'),
  [
    '-----BEGIN CERTIFICATE-----',
    'MIIB5DCCAYmgAwIBAgIUCFOSRAQj1LYZixldbVpf1mEgxscwCgYIKoZIzj0EAwIw',
    'PzEeMBwGA1UEAwwVQ29uZm9ybWFuY2UgVGVzdCBDQSAyMR0wGwYDVQQKDBRjb250',
    'cmFjdC1jb25mb3JtYW5jZTAeFw0yNjEyMDQxOTA4MTFaFw0zNjEyMDExOTA4MTFa',
    'MD8xHjAcBgNVBAMMFUNvbmZvcm1hbmNlIFRlc3QgQ0EgMjEdMBsGA1UECgwUY29u',
    'dHJhY3QtY29uZm9ybWFuY2UwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARu7+H5',
    'VIG6rpGuF1x/dGfhtTg1Jw/kIAxb1Svuh0tHK+FtXj2Y7hb5nylrTKRtl/zvPQMD',
    'UPIq0JWqllFDquAco2MwYTAdBgNVHQ4EFgQUaV8NOFE9iYjTbq1jHcnehrdKf20w',
    'HwYDVR0jBBgwFoAUaV8NOFE9iYjTbq1jHcnehrdKf20wDwYDVR0TAQH/BAUwAwEB',
    '/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSQAwRgIhAMZGoKpUWKtTNxpG',
    'J8z6/z4SA+K6fomQc0zV5DrFKk34AiEAlzq/VhStdXIpiJdbelnyDO/o7KQtBUMJ',
    'oC8+nTW3DWU=',
    '-----END CERTIFICATE-----',
  ].join('\n'),
  [
    '-----BEGIN CERTIFICATE-----',
    'MIIB4zCCAYmgAwIBAgIUBUuQ0oOJ82aUo6kuN4sKrfk13TEwCgYIKoZIzj0EAwIw',
    'PzEeMBwGA1UEAwwVQ29uZm9ybWFuY2UgVGVzdCBDQSAzMR0wGwYDVQQKDBRjb250',
    'cmFjdC1jb25mb3JtYW5jZTAeFw0yNjEyMDQxOTA4MTFaFw0zNjEyMDExOTA4MTFa',
    'MD8xHjAcBgNVBAMMFUNvbmZvcm1hbmNlIFRlc3QgQ0EgMzEdMBsGA1UECgwUY29u',
    'dHJhY3QtY29uZm9ybWFuY2UwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASnTU+s',
    'NMDI4WC9W51VFW7195OR2O2stKP90qoybBkIA5WRtz+2JjcBQldujMevgeN3vZI5',
    'NRfxKMkQgnf73PCTo2MwYTAdBgNVHQ4EFgQUtWqZ9+QKbG/BUQxBJWTNGabp7fEw',
    'HwYDVR0jBBgwFoAUtWqZ9+QKbG/BUQxBJWTNGabp7fEwDwYDVR0TAQH/BAUwAwEB',
    '/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDSAAwRQIgWYuF/zrbu6uzbNj/',
    'GXUg+7tlKZLkAHYRiU4oypDW1n4CIQDOQVYl28WhoZ5qr5z1xtZUMAscf5FyLVWF',
    '+5OYw5Oz+A==',
    '-----END CERTIFICATE-----',
  ].join('\n'),
]);

/** PEM CA certificates: one of a few real self-signed ones, each a complete `BEGIN`/`END CERTIFICATE` block. */
export function caCertificate(): fc.Arbitrary<string> {
  return fc.constantFrom(...CA_CERTIFICATES);
}
