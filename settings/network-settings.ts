import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../core/errors.ts';

/** A proxy as the environment gives it: its URL (credentials included: never printed) and the variable it came from. */
export interface ProxySetting {
  readonly url: string;
  readonly variable: string;
}

/** The proxies of a run, per scheme of the target's URL, and the hosts that bypass them. */
export interface ProxySettings {
  readonly http?: ProxySetting;
  readonly https?: ProxySetting;
  /** NO_PROXY's value, and the variable it came from. */
  readonly noProxy?: { readonly value: string; readonly variable: string };
}

/** A client certificate and its key, as read from their files (mutual TLS). */
export interface ClientCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  readonly key: string;
  /** `CLIENT_KEY_PASSPHRASE`: a secret, never printed (see `networkSecrets`). */
  readonly passphrase?: string;
}

/** How a run reaches a configured target: proxies, extra certificate authorities, a client certificate. */
export interface NetworkSettings {
  readonly proxy: ProxySettings;
  /** `--ca FILE`: the authorities (PEM) trusted besides the system's. */
  readonly ca?: { readonly file: string; readonly certificates: readonly string[] };
  readonly client?: ClientCertificate;
}

/** The network settings as given: the files by flag, the passphrase and the proxies by environment variable. */
export interface NetworkGiven {
  readonly ca?: string;
  readonly clientCert?: string;
  readonly clientKey?: string;
  readonly clientKeyPassphrase?: string;
  readonly httpsProxy?: string;
  readonly httpProxy?: string;
  /** curl's ALL_PROXY: the proxy of either scheme that has none of its own. */
  readonly allProxy?: string;
  readonly noProxy?: string;
}

/** A network setting's key in a settings object. */
export type NetworkKey = keyof NetworkGiven;

/**
 * The environment variables the command reads each of its network settings from, in the order curl reads them: the
 * lower-case form first, and when it is set (even empty) it wins.
 */
export const NETWORK_VARIABLES = Object.freeze({
  clientKeyPassphrase: ['CLIENT_KEY_PASSPHRASE'],
  httpsProxy: ['https_proxy', 'HTTPS_PROXY'],
  httpProxy: ['http_proxy', 'HTTP_PROXY'],
  allProxy: ['all_proxy', 'ALL_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY'],
} as const);

/** The variable that holds the client key's passphrase. */
export const PASSPHRASE_VARIABLE = NETWORK_VARIABLES.clientKeyPassphrase[0];

/** The proxy URL schemes a run can speak to. */
const PROXY_SCHEMES: readonly string[] = ['http:', 'https:'];

/** curl's SOCKS proxy schemes: taken, so that a request they would carry stops the run (PROXY_UNSUPPORTED). */
export const SOCKS_SCHEMES: readonly string[] = ['socks4:', 'socks4a:', 'socks5:', 'socks5h:', 'socks:'];

/** How the network settings are resolved: for a configured target or not, and Node's extra authorities. */
export interface NetworkOptions {
  /** False for the embedded reference target, on loopback: it is reached directly. */
  readonly proxied: boolean;
  /** NODE_EXTRA_CA_CERTS, whose authorities `--ca` keeps. */
  readonly nodeExtraCaCerts?: string;
}

/**
 * Resolves the network settings: the proxies (for a configured target only), and the certificate files, read and
 * checked now; a bad one is CONFIG_INVALID naming it as the caller named it (`nameOf`).
 */
export function resolveNetwork(
  given: NetworkGiven,
  nameOf: (key: NetworkKey) => string,
  options: NetworkOptions,
): NetworkSettings {
  const extra = nodeExtraCertificates(options.nodeExtraCaCerts);
  const ca =
    given.ca === undefined
      ? undefined
      : { file: given.ca, certificates: [...caCertificates(given.ca, nameOf('ca')), ...extra] };
  const client = clientCertificate(given, nameOf);
  return {
    proxy: options.proxied ? proxySettings(given, nameOf) : {},
    ...(ca ? { ca } : {}),
    ...(client ? { client } : {}),
  };
}

/** The secrets of the network settings (the key's passphrase, the proxies' passwords), for the redactor. */
export function networkSecrets(network: NetworkSettings | undefined): string[] {
  if (!network) return [];
  const passwords = [network.proxy.http, network.proxy.https].flatMap((proxy) => {
    const password = proxy ? new URL(proxy.url).password : '';
    return password ? [password, decodeURIComponent(password)] : [];
  });
  return [...(network.client?.passphrase ? [network.client.passphrase] : []), ...passwords];
}

/** A proxy's URL as messages show it: scheme, host and port, without its credentials. */
export function shownProxy(proxy: ProxySetting): string {
  const url = new URL(proxy.url);
  return `${url.protocol}//${url.host}`;
}

function proxySettings(given: NetworkGiven, nameOf: (key: NetworkKey) => string): ProxySettings {
  const proxy = (key: 'httpsProxy' | 'httpProxy' | 'allProxy'): ProxySetting | undefined => {
    const value = given[key]?.trim();
    return value ? { url: proxyUrl(value, nameOf(key)), variable: nameOf(key) } : undefined;
  };
  // As curl: a scheme's own variable, else ALL_PROXY (a variable set empty is not set, for this fallback).
  const all = proxy('allProxy');
  const http = proxy('httpProxy') ?? all;
  const https = proxy('httpsProxy') ?? all;
  const noProxy = given.noProxy?.trim();
  return {
    ...(http ? { http } : {}),
    ...(https ? { https } : {}),
    ...(noProxy ? { noProxy: { value: noProxy, variable: nameOf('noProxy') } } : {}),
  };
}

/** A proxy variable's value as a URL; without a scheme it is `http://`, as curl takes it. */
function proxyUrl(value: string, variable: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch (error) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${variable} is not a proxy URL: give one such as http://proxy.example.com:3128.`,
      { cause: error },
    );
  }
  if (!PROXY_SCHEMES.includes(url.protocol) && !SOCKS_SCHEMES.includes(url.protocol)) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${variable} names a ${url.protocol.slice(0, -1)} proxy, but a run speaks to http and https proxies only: ` +
        'give an http(s) proxy, or unset it.',
    );
  }
  return url.href;
}

function readText(file: string, flag: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new HarnessError('CONFIG_INVALID', `${flag} ${file} cannot be read (${code}): give ${what}.`, {
      cause: error,
    });
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

function pemCertificates(text: string, file: string, flag: string, what: string): string[] {
  const found = text.match(PEM_CERTIFICATE) ?? [];
  for (const pem of found) {
    try {
      new X509Certificate(pem);
    } catch (error) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `${flag} ${file} holds a certificate that does not parse: give ${what}.`,
        {
          cause: error,
        },
      );
    }
  }
  if (found.length === 0)
    throw new HarnessError('CONFIG_INVALID', `${flag} ${file} holds no PEM certificate: give ${what}.`);
  return found;
}

function caCertificates(file: string, name: string): string[] {
  const what = 'the certificate authority as PEM (-----BEGIN CERTIFICATE-----)';
  return pemCertificates(readText(file, name, what), file, name, what);
}

/**
 * NODE_EXTRA_CA_CERTS's certificates, which `--ca` keeps: a run's own list of authorities replaces Node's, and Node 20
 * has no way to read its default list with them. Node itself warns at start when the file cannot be read; so none.
 */
function nodeExtraCertificates(file: string | undefined): string[] {
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return []; // Node warned at start, and ran without them.
  }
  return text.match(PEM_CERTIFICATE) ?? [];
}

function clientCertificate(given: NetworkGiven, nameOf: (key: NetworkKey) => string): ClientCertificate | undefined {
  const { clientCert: certFile, clientKey: keyFile, clientKeyPassphrase: passphrase } = given;
  if (certFile === undefined && keyFile === undefined) return undefined;
  const [certName, keyName] = [nameOf('clientCert'), nameOf('clientKey')];
  if (certFile === undefined || keyFile === undefined) {
    const [present, missing] = certFile === undefined ? [keyName, certName] : [certName, keyName];
    throw new HarnessError(
      'CONFIG_INVALID',
      `${present} is given without ${missing}: mutual TLS needs both the certificate and its private key.`,
    );
  }
  const certWhat = 'the client certificate as PEM (-----BEGIN CERTIFICATE-----)';
  const cert = pemCertificates(readText(certFile, certName, certWhat), certFile, certName, certWhat);
  const keyText = readText(keyFile, keyName, 'the private key of the client certificate as PEM');
  const key = privateKey(keyText, `${keyName} ${keyFile}`, passphrase, nameOf('clientKeyPassphrase'));
  if (!new X509Certificate(cert[0]!).checkPrivateKey(key)) {
    throw new HarnessError(
      'CONFIG_INVALID',
      `${keyName} ${keyFile} is not the key of ${certName} ${certFile}: give the private key that belongs to that ` +
        'certificate.',
    );
  }
  return {
    certFile,
    keyFile,
    cert: cert.join('\n'),
    key: keyText,
    ...(passphrase ? { passphrase } : {}),
  };
}

function privateKey(text: string, key: string, passphrase: string | undefined, passphraseName: string): KeyObject {
  try {
    return createPrivateKey({ key: text, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const encrypted = /ENCRYPTED/.test(text);
    if (encrypted && !passphrase) {
      throw new HarnessError('CONFIG_INVALID', `${key} is encrypted: set ${passphraseName} to its passphrase.`, {
        cause: error,
      });
    }
    if (encrypted) {
      throw new HarnessError(
        'CONFIG_INVALID',
        `${key} does not open with ${passphraseName} (${code || 'bad decrypt'}): set it to the key's passphrase.`,
        { cause: error },
      );
    }
    throw new HarnessError(
      'CONFIG_INVALID',
      `${key} holds no private key that parses (${code || 'unreadable'}): give the private key of the client ` +
        'certificate as PEM.',
      { cause: error },
    );
  }
}
