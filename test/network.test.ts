import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, resolveSettings } from '../settings/config.ts';
import { curlCommand } from '../evidence/curl.ts';
import { isHarnessError } from '../core/errors.ts';
import type { ProxySettings } from '../settings/network-settings.ts';
import { proxyFor } from '../settings/proxy-route.ts';
import { loadSpecs, type Specs } from '../spec/spec.ts';
import { preflight } from '../engine/preflight.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { RULE_IDS } from '../rules/index.ts';
import { runInProcess } from './support/in-process.ts';
import {
  type ForwardProxy,
  forwardProxy,
  makeCertificates,
  TEST_PASSPHRASE,
  type TestCertificates,
  type TlsFront,
  tlsFront,
} from './support/network-fixtures.ts';
import { targetEnv } from './support/target-env.ts';

let certs: TestCertificates;
let reference: ReferenceTarget;
let specs: Specs;
/** Each API of the reference target behind TLS that requires a client certificate signed by the test's authority. */
let mutual: { management: TlsFront; alerts: TlsFront };
/** The alerts API behind TLS, no client certificate asked; and behind a self-signed certificate. */
let plain: TlsFront;
let selfSigned: TlsFront;
/** The alerts API behind a certificate of the test's authority that has expired, and one not valid yet. */
let expired: TlsFront;
let notYetValid: TlsFront;
/** The alerts API behind a gateway that asks for a client certificate and answers 400 without one, as nginx does. */
let nginxLike: TlsFront;
/** The alerts API behind a gateway that closes the connection after the handshake when it has no client certificate. */
let hangsUp: TlsFront;
/** The same, resetting the connection (TCP RST) instead. */
let resets: TlsFront;
/** The proxy through which alone `target.test` and `other.test` resolve (to 127.0.0.1). */
let proxy: ForwardProxy;
/** The same, wanting the credentials `user:secret-for-test`. */
let guarded: ForwardProxy;
/** A proxy spoken to over TLS, its certificate signed by the test's authority. */
let tlsProxy: ForwardProxy;
/** A proxy spoken to over TLS whose certificate has expired. */
let expiredProxy: ForwardProxy;
const PROXY_CREDENTIALS = 'user:proxy-password-for-test';

beforeAll(async () => {
  [certs, reference, specs] = await Promise.all([makeCertificates(), startReference(), loadSpecs()]);
  const server = { cert: certs.serverCert, key: certs.serverKey };
  mutual = {
    management: await tlsFront(reference.managementUrl, { ...server, clientCa: certs.caFile }),
    alerts: await tlsFront(reference.alertsUrl, { ...server, clientCa: certs.caFile }),
  };
  plain = await tlsFront(reference.alertsUrl, server);
  selfSigned = await tlsFront(reference.alertsUrl, { cert: certs.selfSignedCert, key: certs.selfSignedKey });
  expired = await tlsFront(reference.alertsUrl, { cert: certs.expiredCert, key: certs.serverKey });
  notYetValid = await tlsFront(reference.alertsUrl, { cert: certs.notYetValidCert, key: certs.serverKey });
  nginxLike = await tlsFront(reference.alertsUrl, { ...server, clientCa: certs.caFile, answers: true });
  hangsUp = await tlsFront(reference.alertsUrl, { ...server, clientCa: certs.caFile, hangsUp: 'close' });
  resets = await tlsFront(reference.alertsUrl, { ...server, clientCa: certs.caFile, hangsUp: 'reset' });
  proxy = await forwardProxy(['target.test', 'other.test']);
  guarded = await forwardProxy(['target.test'], { credentials: PROXY_CREDENTIALS });
  tlsProxy = await forwardProxy(['target.test'], { tls: { cert: certs.proxyCert, key: certs.proxyKey } });
  expiredProxy = await forwardProxy(['target.test'], { tls: { cert: certs.expiredCert, key: certs.serverKey } });
});

afterAll(async () => {
  await Promise.all(
    [
      mutual.management,
      mutual.alerts,
      plain,
      selfSigned,
      expired,
      notYetValid,
      nginxLike,
      hangsUp,
      resets,
      proxy,
      guarded,
      tlsProxy,
      expiredProxy,
    ].map((s) => s.close()),
  );
  await reference.close();
});

/** The settings of the alerts API at `url`, with the reference target's token. */
function alertsAt(url: string, env: Record<string, string> = {}): Record<string, string> {
  return { ALERTS_BASE_URL: url, ALERTS_TOKEN: reference.alertsToken, ...env };
}

/** A message with its loopback ports and the test's temporary folder replaced. */
function normalised(message: string): string {
  return message.replaceAll(certs.dir, 'DIR').replace(/:\d{2,5}\b/g, ':PORT');
}

/** The HarnessError of the preflight (or of the resolver) for these settings, normalised. */
async function settingsError(env: Record<string, string>, args: readonly string[] = []): Promise<[string, string]> {
  try {
    await preflight(resolveConfig(args, env, RULE_IDS), specs);
  } catch (error) {
    if (isHarnessError(error)) return [error.code, normalised(error.message)];
    throw error;
  }
  throw new Error('expected the settings to be refused');
}

describe('a whole run through a proxy, behind mutual TLS', () => {
  it('sends every request through the proxy, trusts --ca, gives an encrypted key, never shows its secret', async () => {
    const tunnelsBefore = proxy.tunnels();
    const env = {
      ...targetEnv(reference, {
        management: `https://target.test:${mutual.management.port}`,
        alerts: `https://target.test:${mutual.alerts.port}`,
      }),
      HTTPS_PROXY: proxy.url,
      CLIENT_KEY_PASSPHRASE: TEST_PASSPHRASE,
    };
    const args = ['--runs', '1', '--seed', '7', '--ca', certs.caFile];
    const client = ['--client-cert', certs.clientCert, '--client-key', certs.clientKeyEncrypted];
    const run = await runInProcess([...args, ...client], env);
    expect(run.output).toMatch(/preflight: management .* ok/);
    expect(run.code, run.output).toBe(0);
    const received = mutual.management.requests() + mutual.alerts.requests();
    const preflightRequests = Number(/\((\d+) GET requests?\)/.exec(run.output)?.[1]);
    // target.test resolves through the proxy alone: whatever reached the targets went through its tunnels.
    expect(received).toBe(run.report.stats.requests + preflightRequests);
    const tunnels = proxy.tunnels() - tunnelsBefore;
    expect(tunnels).toBeGreaterThan(0);
    expect(tunnels).toBeLessThanOrEqual(received);
    console.info(`proxy: ${tunnels} tunnels for ${received} requests (${preflightRequests} of the preflight)`);
    for (const file of await readdir(run.reportDir)) {
      expect(await readFile(join(run.reportDir, file), 'utf8')).not.toContain(TEST_PASSPHRASE);
    }
    expect(run.output).not.toContain(TEST_PASSPHRASE);
  });

  it('sends an http target through http_proxy in absolute form, as curl does, and NO_PROXY bypasses it', async () => {
    const port = new URL(reference.alertsUrl).port;
    const before = proxy.forwarded();
    const report = await preflight(
      resolveConfig([], alertsAt(`http://target.test:${port}`, { http_proxy: proxy.url }), RULE_IDS),
      specs,
    );
    expect(report.line).toBe('preflight: alerts token ok (1 GET request)');
    expect(proxy.forwarded() - before).toBe(1);
    const direct = await preflight(
      resolveConfig(
        [],
        alertsAt(reference.alertsUrl, { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' }),
        RULE_IDS,
      ),
      specs,
    );
    expect(direct.line).toBe('preflight: alerts token ok (1 GET request)');
  });
});

describe('what stops a connection is exit 2 with its own code, naming the setting that fixes it', () => {
  const ca = (): string[] => ['--ca', certs.caFile];
  const cases: [string, () => [Record<string, string>, string[]], [string, string]][] = [
    [
      'an authority the run does not know',
      () => [alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: proxy.url }), []],
      [
        'TLS_UNTRUSTED',
        'The certificate of ALERTS_BASE_URL (https://target.test:PORT) is not trusted: it is signed by an authority ' +
          'the run does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE). Give the certificate of the authority that ' +
          "signed it (your company's own) as PEM with --ca FILE or NODE_EXTRA_CA_CERTS=FILE.",
      ],
    ],
    [
      'a self-signed certificate',
      () => [alertsAt(`https://target.test:${selfSigned.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'TLS_UNTRUSTED',
        'The certificate of ALERTS_BASE_URL (https://target.test:PORT) is not trusted: it is self-signed ' +
          '(DEPTH_ZERO_SELF_SIGNED_CERT) (--ca DIR/ca.pem does not hold it). Give that certificate itself as PEM ' +
          'with --ca FILE or NODE_EXTRA_CA_CERTS=FILE.',
      ],
    ],
    [
      'an expired certificate',
      () => [alertsAt(`https://target.test:${expired.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'TLS_EXPIRED',
        'The certificate of ALERTS_BASE_URL (https://target.test:PORT) has expired (CERT_HAS_EXPIRED); no --ca ' +
          "makes it valid. Ask the target's owners to renew it, or set ALERTS_BASE_URL to a deployment whose " +
          'certificate is current.',
      ],
    ],
    [
      'a certificate not valid yet',
      () => [alertsAt(`https://target.test:${notYetValid.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'TLS_NOT_YET_VALID',
        'The certificate of ALERTS_BASE_URL (https://target.test:PORT) is not valid yet (CERT_NOT_YET_VALID); no ' +
          "--ca makes it valid. Either it was issued for a later date or this machine's clock is behind: check the " +
          "clock (date -u), and if it is right, ask the target's owners for a certificate valid now.",
      ],
    ],
    [
      'a name the certificate does not cover',
      () => [alertsAt(`https://other.test:${plain.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'TLS_NAME_MISMATCH',
        'The certificate of ALERTS_BASE_URL (https://other.test:PORT) does not cover other.test: it covers ' +
          'target.test. Set ALERTS_BASE_URL to a URL with a name it covers.',
      ],
    ],
    [
      'an IP address the certificate does not cover',
      () => [alertsAt(`https://127.0.0.1:${plain.port}`), ca()],
      [
        'TLS_NAME_MISMATCH',
        'The certificate of ALERTS_BASE_URL (https://127.0.0.1:PORT) does not cover 127.0.0.1: it covers ' +
          'target.test. Set ALERTS_BASE_URL to a URL with a name it covers.',
      ],
    ],
    [
      'a gateway that wants a client certificate',
      () => [alertsAt(`https://target.test:${mutual.alerts.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) wants a client certificate (mutual TLS), and the run gave none ' +
          '(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED). Set --client-cert FILE and --client-key FILE (PEM; ' +
          'CLIENT_KEY_PASSPHRASE for an encrypted key).',
      ],
    ],
    [
      'a gateway that refuses the client certificate given in the handshake',
      () => [
        alertsAt(`https://target.test:${mutual.alerts.port}`, { HTTPS_PROXY: proxy.url }),
        [...ca(), '--client-cert', certs.selfSignedCert, '--client-key', certs.selfSignedKey],
      ],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) refused the client certificate --client-cert DIR/self.pem (it ' +
          'closed the connection after the TLS handshake, without answering: UND_ERR_SOCKET). Give one that its ' +
          'gateway accepts: --client-cert FILE and --client-key FILE.',
      ],
    ],
    [
      'a gateway that answers 400 without a client certificate',
      () => [alertsAt(`https://target.test:${nginxLike.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) wants a client certificate (mutual TLS), and the run gave none ' +
          '(answered 400: "No required SSL certificate was sent"). Set --client-cert FILE and --client-key FILE ' +
          '(PEM; CLIENT_KEY_PASSPHRASE for an encrypted key).',
      ],
    ],
    [
      'a gateway that answers 400 to a client certificate it does not accept',
      () => [
        alertsAt(`https://target.test:${nginxLike.port}`, { HTTPS_PROXY: proxy.url }),
        [...ca(), '--client-cert', certs.selfSignedCert, '--client-key', certs.selfSignedKey],
      ],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) refused the client certificate --client-cert DIR/self.pem ' +
          '(answered 400: "The SSL certificate error"). Give one that its gateway accepts: --client-cert FILE and ' +
          '--client-key FILE.',
      ],
    ],
    [
      'a gateway that resets the connection after the handshake without a client certificate',
      () => [alertsAt(`https://target.test:${resets.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) wants a client certificate (mutual TLS), and the run gave none ' +
          '(it asked for one, then reset the connection after the TLS handshake, without answering: ' +
          'ECONNRESET). Set --client-cert FILE and --client-key FILE (PEM; CLIENT_KEY_PASSPHRASE for an ' +
          'encrypted key).',
      ],
    ],
    [
      'a gateway that closes the connection after the handshake without a client certificate',
      () => [alertsAt(`https://target.test:${hangsUp.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) wants a client certificate (mutual TLS), and the run gave none ' +
          '(it asked for one, then closed the connection after the TLS handshake, without answering: ' +
          'UND_ERR_SOCKET). Set --client-cert FILE and --client-key FILE (PEM; CLIENT_KEY_PASSPHRASE for an ' +
          'encrypted key).',
      ],
    ],
    [
      'a gateway that closes the connection after the handshake with a client certificate it does not accept',
      () => [
        alertsAt(`https://target.test:${hangsUp.port}`, { HTTPS_PROXY: proxy.url }),
        [...ca(), '--client-cert', certs.selfSignedCert, '--client-key', certs.selfSignedKey],
      ],
      [
        'CLIENT_CERT_REQUIRED',
        'ALERTS_BASE_URL (https://target.test:PORT) refused the client certificate --client-cert DIR/self.pem (it ' +
          'closed the connection after the TLS handshake, without answering: UND_ERR_SOCKET). Give one that its ' +
          'gateway accepts: --client-cert FILE and --client-key FILE.',
      ],
    ],
    [
      'a proxy that wants credentials',
      () => [alertsAt(`https://target.test:${plain.port}`, { https_proxy: guarded.url }), ca()],
      [
        'PROXY_REFUSED',
        'The proxy https_proxy (http://127.0.0.1:PORT) answered 407 to a tunnel to target.test:PORT: it wants a ' +
          'user and password, and https_proxy has none. Put them in it (http://USER:PASSWORD@HOST:PORT, ' +
          'percent-encoded).',
      ],
    ],
    [
      'a proxy that refuses other credentials',
      () => [
        alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: guarded.url.replace('//', '//user:wrong@') }),
        ca(),
      ],
      [
        'PROXY_REFUSED',
        'The proxy HTTPS_PROXY (http://127.0.0.1:PORT) answered 407 to a tunnel to target.test:PORT: it refuses the ' +
          'user and password in HTTPS_PROXY. Check them (http://USER:PASSWORD@HOST:PORT, percent-encoded).',
      ],
    ],
    [
      'a proxy that refuses the tunnel',
      () => [alertsAt(`https://elsewhere.test:${plain.port}`, { HTTPS_PROXY: proxy.url }), ca()],
      [
        'PROXY_REFUSED',
        'The proxy HTTPS_PROXY (http://127.0.0.1:PORT) refused a tunnel to elsewhere.test:PORT: it answered 502. ' +
          'Ask for elsewhere.test:PORT to be let through it, or, when elsewhere.test is reachable without the ' +
          'proxy, add it to NO_PROXY.',
      ],
    ],
    [
      'a proxy spoken to over TLS whose certificate the run does not trust',
      () => [alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: tlsProxy.url }), []],
      [
        'PROXY_UNREACHABLE',
        'The proxy HTTPS_PROXY (https://127.0.0.1:PORT) cannot be reached: its certificate is not trusted: it is ' +
          'signed by an authority the run does not know (UNABLE_TO_VERIFY_LEAF_SIGNATURE). Give the certificate of ' +
          "the authority that signed it (your company's own) as PEM with --ca FILE or NODE_EXTRA_CA_CERTS=FILE.",
      ],
    ],
    [
      'a SOCKS proxy in ALL_PROXY',
      () => [alertsAt(`https://target.test:${plain.port}`, { ALL_PROXY: 'socks5h://user:pw@127.0.0.1:1080' }), ca()],
      [
        'PROXY_UNSUPPORTED',
        'ALL_PROXY names a SOCKS proxy (socks5h://127.0.0.1:PORT) for target.test:PORT, and a run speaks to http and ' +
          'https proxies only: set HTTPS_PROXY to an HTTP proxy (http://HOST:PORT), which wins over ALL_PROXY, or ' +
          'add target.test to NO_PROXY when it is reachable without a proxy.',
      ],
    ],
    [
      'a SOCKS proxy in http_proxy',
      () => [alertsAt(`http://target.test:${plain.port}`, { http_proxy: 'socks4://127.0.0.1:1080' }), []],
      [
        'PROXY_UNSUPPORTED',
        'http_proxy names a SOCKS proxy (socks4://127.0.0.1:PORT) for target.test:PORT, and a run speaks to http and ' +
          'https proxies only: set it to an HTTP proxy (http://HOST:PORT), or add target.test to NO_PROXY when it ' +
          'is reachable without a proxy.',
      ],
    ],
    [
      'a proxy spoken to over TLS whose certificate has expired',
      () => [alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: expiredProxy.url }), ca()],
      [
        'PROXY_UNREACHABLE',
        'The proxy HTTPS_PROXY (https://127.0.0.1:PORT) cannot be reached: its certificate has expired ' +
          '(CERT_HAS_EXPIRED). Ask its owners to renew it, or check HTTPS_PROXY.',
      ],
    ],
    [
      'a proxy that cannot be reached',
      () => [alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: '127.0.0.1:9' }), ca()],
      [
        'PROXY_UNREACHABLE',
        'The proxy HTTPS_PROXY (http://127.0.0.1:9) cannot be reached: ECONNREFUSED. Check HTTPS_PROXY, or, when ' +
          'target.test is reachable without the proxy, add it to NO_PROXY.',
      ],
    ],
  ];
  it.each(cases)('%s', async (_what, settings, expected) => {
    const [env, args] = settings();
    const error = await settingsError(env, args);
    expect(error).toEqual(expected);
    expect(error[1]).not.toMatch(/wrong@|proxy-password-for-test|user:pw/);
  });

  it('a proxy spoken to over TLS is trusted with --ca, and tunnels to the target', async () => {
    const before = tlsProxy.tunnels();
    const env = alertsAt(`https://target.test:${plain.port}`, { HTTPS_PROXY: tlsProxy.url });
    expect((await preflight(resolveConfig(['--ca', certs.caFile], env, RULE_IDS), specs)).line).toBe(
      'preflight: alerts token ok (1 GET request)',
    );
    expect(tlsProxy.tunnels() - before).toBe(1);
  });

  it('--ca adds to the authorities trusted already: those of NODE_EXTRA_CA_CERTS stay trusted', async () => {
    const env = alertsAt(`https://target.test:${plain.port}`, {
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: certs.caFile,
    });
    expect((await preflight(resolveConfig(['--ca', certs.selfSignedCert], env, RULE_IDS), specs)).line).toBe(
      'preflight: alerts token ok (1 GET request)',
    );
  });

  it('the same target with --ca and the client certificate passes the preflight, through the proxy', async () => {
    const env = alertsAt(`https://target.test:${mutual.alerts.port}`, { HTTPS_PROXY: proxy.url });
    const args = ['--ca', certs.caFile, '--client-cert', certs.clientCert, '--client-key', certs.clientKey];
    expect((await preflight(resolveConfig(args, env, RULE_IDS), specs)).line).toBe(
      'preflight: alerts token ok (1 GET request)',
    );
  });
});

describe('certificate files are read and checked when the settings are resolved', () => {
  const cases: [string, () => string[], Record<string, string>, string][] = [
    [
      'a --ca file that is missing',
      () => ['--ca', join(certs.dir, 'missing.pem')],
      {},
      '--ca DIR/missing.pem cannot be read (ENOENT): give the certificate authority as PEM (-----BEGIN ' +
        'CERTIFICATE-----).',
    ],
    [
      'a --ca file that holds no certificate',
      () => ['--ca', certs.serverKey],
      {},
      '--ca DIR/server.key holds no PEM certificate: give the certificate authority as PEM (-----BEGIN ' +
        'CERTIFICATE-----).',
    ],
    [
      'a certificate without its key',
      () => ['--client-cert', certs.clientCert],
      {},
      '--client-cert is given without --client-key: mutual TLS needs both the certificate and its private key.',
    ],
    [
      'a key that is not the certificate’s',
      () => ['--client-cert', certs.clientCert, '--client-key', certs.strayKey],
      {},
      '--client-key DIR/stray.key is not the key of --client-cert DIR/client.pem: give the private key that ' +
        'belongs to that certificate.',
    ],
    [
      'an encrypted key without its passphrase',
      () => ['--client-cert', certs.clientCert, '--client-key', certs.clientKeyEncrypted],
      {},
      '--client-key DIR/client-encrypted.key is encrypted: set CLIENT_KEY_PASSPHRASE to its passphrase.',
    ],
    [
      'a wrong passphrase',
      () => ['--client-cert', certs.clientCert, '--client-key', certs.clientKeyEncrypted],
      { CLIENT_KEY_PASSPHRASE: 'not-the-passphrase' },
      '--client-key DIR/client-encrypted.key does not open with CLIENT_KEY_PASSPHRASE (ERR_OSSL_BAD_DECRYPT): set ' +
        "it to the key's passphrase.",
    ],
    [
      'a proxy of a scheme the run does not speak',
      () => [],
      { HTTPS_PROXY: 'ftp://proxy.example:21' },
      'HTTPS_PROXY names a ftp proxy, but a run speaks to http and https proxies only: give an http(s) proxy, or ' +
        'unset it.',
    ],
  ];
  it.each(cases)('%s', async (_what, args, env, message) => {
    const error = await settingsError(alertsAt('https://target.test', env), args());
    expect(error).toEqual(['CONFIG_INVALID', message]);
    expect(error[1]).not.toContain('not-the-passphrase');
  });
});

describe('the proxy a request takes, as curl chooses it', () => {
  const proxies = (noProxy?: string): ProxySettings => ({
    http: { url: 'http://plain-proxy:3128/', variable: 'http_proxy' },
    https: { url: 'http://tls-proxy:3128/', variable: 'HTTPS_PROXY' },
    ...(noProxy === undefined ? {} : { noProxy: { value: noProxy, variable: 'NO_PROXY' } }),
  });
  const cases: [string, string | undefined, string | undefined][] = [
    ['https://api.example.com', undefined, 'HTTPS_PROXY'],
    ['http://api.example.com', undefined, 'http_proxy'],
    ['https://api.example.com', 'example.com', undefined],
    ['https://api.example.com', '.example.com', undefined],
    ['https://example.com', '.example.com', undefined],
    ['https://api.example.com', '*.example.com', undefined],
    ['https://notexample.com', 'example.com', 'HTTPS_PROXY'],
    ['https://api.example.com', 'other.org, example.com', undefined],
    ['https://api.example.com', 'other.org example.com', undefined],
    ['https://API.Example.COM.', 'example.com', undefined],
    ['https://api.example.com', '*', undefined],
    ['https://api.example.com:8443', 'example.com:8443', undefined],
    ['https://api.example.com', 'example.com:8443', 'HTTPS_PROXY'],
    ['https://api.example.com', 'example.com:443', undefined],
    ['https://10.1.2.3', '10.1.2.3', undefined],
    ['https://10.1.2.3', '10.0.0.0/8', undefined],
    ['https://11.1.2.3', '10.0.0.0/8', 'HTTPS_PROXY'],
    ['https://10.1.2.3.example.com', '10.1.2.3', 'HTTPS_PROXY'],
    ['https://[::1]:8443', '::1', undefined],
    ['https://[::1]:8443', '[::1]:8443', undefined],
    ['https://[::1]:8443', '[::1]:9443', 'HTTPS_PROXY'],
  ];
  it.each(cases)('%s with NO_PROXY=%s: %s', (url, noProxy, variable) => {
    expect(proxyFor(new URL(url), proxies(noProxy))?.variable).toBe(variable);
  });

  it('reads the lower-case variables first (set empty, they mean none), and http_proxy is never used for https', () => {
    const network = (env: Record<string, string>) =>
      resolveConfig([], alertsAt('https://target.test', env), RULE_IDS).network.proxy;
    expect(network({ http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:1' }).http?.variable).toBe('http_proxy');
    expect(network({ HTTPS_PROXY: 'proxy.example:3128' }).https).toEqual({
      url: 'http://proxy.example:3128/',
      variable: 'HTTPS_PROXY',
    });
    expect(network({ https_proxy: '', HTTPS_PROXY: 'http://upper:1' }).https).toBeUndefined();
    expect(proxyFor(new URL('https://target.test'), network({ HTTP_PROXY: 'http://plain:1' }))).toBeUndefined();
    expect(network({ no_proxy: 'a.test', NO_PROXY: 'b.test' }).noProxy).toEqual({
      value: 'a.test',
      variable: 'no_proxy',
    });
  });

  it('falls back to ALL_PROXY (lower-case first) for either scheme without its own, as curl does', async () => {
    const network = (env: Record<string, string>, url = 'https://target.test') =>
      resolveConfig([], alertsAt(url, env), RULE_IDS).network.proxy;
    expect(network({ ALL_PROXY: 'http://upper:1', all_proxy: 'http://lower:1' })).toEqual({
      http: { url: 'http://lower:1/', variable: 'all_proxy' },
      https: { url: 'http://lower:1/', variable: 'all_proxy' },
    });
    expect(network({ ALL_PROXY: 'http://all:1', HTTPS_PROXY: 'http://own:1' }).https?.variable).toBe('HTTPS_PROXY');
    // A SOCKS proxy that no request takes (NO_PROXY covers the target) stops nothing.
    expect(network({ ALL_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: 'target.test' }).noProxy?.value).toBe(
      'target.test',
    );
    const before = proxy.tunnels();
    const env = alertsAt(`https://target.test:${plain.port}`, { ALL_PROXY: proxy.url });
    expect((await preflight(resolveConfig(['--ca', certs.caFile], env, RULE_IDS), specs)).line).toBe(
      'preflight: alerts token ok (1 GET request)',
    );
    expect(proxy.tunnels() - before).toBe(1);
  });

  it('the embedded reference target is reached directly, whatever the proxy variables say', () => {
    expect(resolveConfig([], { HTTPS_PROXY: 'http://127.0.0.1:9' }, RULE_IDS).network.proxy).toEqual({});
  });
});

describe('a run from code', () => {
  it('takes the network settings as keys, and names them so in its errors', async () => {
    const network = (settings: Record<string, string>) =>
      resolveSettings({ alertsUrl: 'https://target.test', alertsToken: 'token-value', ...settings }, RULE_IDS).network;
    expect(network({ httpsProxy: 'proxy.example:3128', noProxy: 'a.test' }).proxy).toEqual({
      https: { url: 'http://proxy.example:3128/', variable: 'httpsProxy' },
      noProxy: { value: 'a.test', variable: 'noProxy' },
    });
    const settings = { clientCert: certs.clientCert, clientKey: certs.clientKeyEncrypted };
    expect(() => network(settings)).toThrow(/^clientKey .* is encrypted: set clientKeyPassphrase to its passphrase\.$/);
    expect(network({ ...settings, clientKeyPassphrase: TEST_PASSPHRASE }).client?.passphrase).toBe(TEST_PASSPHRASE);
  });
});

describe('a reproduction behind the proxy and mutual TLS', () => {
  it("is a curl command with --ca and the client certificate, that reaches the target by curl's proxy", async () => {
    const url = `https://target.test:${mutual.alerts.port}`;
    const env = alertsAt(url, { HTTPS_PROXY: proxy.url, CLIENT_KEY_PASSPHRASE: TEST_PASSPHRASE });
    const args = ['--ca', certs.caFile, '--client-cert', certs.clientCert, '--client-key', certs.clientKeyEncrypted];
    const { network } = resolveConfig(args, env, RULE_IDS);
    const request = {
      method: 'GET',
      url: `${url}/api/v2/alerts`,
      headers: { accept: 'application/json', authorization: `Bearer ${reference.alertsToken}` },
      auth: 'default' as const,
      params: {},
      query: {},
    };
    const curl = curlCommand('alerts', request, { credentials: {}, redact: (text) => text, network });
    expect(normalised(curl)).toBe(
      "curl -sS -i -X GET 'https://target.test:PORT/api/v2/alerts' --cacert 'DIR/ca.pem' --cert 'DIR/client.pem' " +
        '--key \'DIR/client-encrypted.key\' --pass "$CLIENT_KEY_PASSPHRASE" -H "Authorization: Bearer $ALERTS_TOKEN" ' +
        "-H 'accept: application/json'",
    );
    const tunnels = proxy.tunnels();
    const { stdout } = await promisify(execFile)('bash', ['-c', curl], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    });
    expect(stdout).toMatch(/^HTTP\/[\d.]+ 200 /m);
    expect(proxy.tunnels() - tunnels).toBe(1);
  });
});
