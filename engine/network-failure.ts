import type { ConnectionWatch } from '../transport/connection-watch.ts';
import { HarnessError, type HarnessErrorCode } from '../core/errors.ts';
import type { TransportFailure } from '../transport/exchange.ts';
import { type NetworkSettings, PASSPHRASE_VARIABLE, shownProxy } from '../settings/network-settings.ts';
import { proxyFor } from '../settings/proxy-route.ts';

/** A request of the preflight that got no answer, and where it was going. */
export interface UnansweredRequest {
  readonly failure: TransportFailure;
  /** What the preflight's connections met: the target's TLS alert, whether it asked for a client certificate. */
  readonly connections: Pick<ConnectionWatch, 'alertOf' | 'connected' | 'certificateAsked'>;
  readonly baseUrlVariable: string;
  readonly baseUrl: string;
  readonly network: NetworkSettings;
}

/** How a certificate the run cannot trust is worded, by Node's code. */
const UNTRUSTED: Readonly<Record<string, string>> = Object.freeze({
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends at an authority the run does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is signed by an authority the run does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is signed by an authority the run does not know',
  UNABLE_TO_GET_ISSUER_CERT: 'it is signed by an authority the run does not know',
});

/** Certificates out of their dates, which no authority makes valid: the error's code, and what is wrong, in words. */
const OUT_OF_DATE: Readonly<Record<string, { readonly code: HarnessErrorCode; readonly words: string }>> =
  Object.freeze({
    CERT_HAS_EXPIRED: { code: 'TLS_EXPIRED', words: 'has expired' },
    CERT_NOT_YET_VALID: { code: 'TLS_NOT_YET_VALID', words: 'is not valid yet' },
  });

/** The TLS alerts by which a server refuses a client without a certificate, or the one it was given. */
const CLIENT_CERT_ALERTS: readonly string[] = [
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
];

/** The codes of a connection closed by the other side before it answered. */
const HUNG_UP: readonly string[] = ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED'];

/** The codes of a connection that was never made (to the proxy, when one is used). */
const NOT_CONNECTED: readonly string[] = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_PRX_TLS',
];

/**
 * The settings error behind a preflight request that got no answer, when the network's settings explain it: a proxy
 * that refuses or cannot be reached, a certificate the run cannot trust or that does not cover the target's name, a
 * gateway that wants a client certificate. Each names the setting that fixes it; undefined for anything else.
 */
export function networkFailure(request: UnansweredRequest): HarnessError | undefined {
  const { failure, baseUrlVariable, baseUrl, network } = request;
  const url = new URL(baseUrl);
  const target = `${baseUrlVariable} (${baseUrl})`;
  const code = failure.message.split(':')[0] ?? '';
  const proxy = proxyFor(url, network.proxy);
  const refusedWith = /^Proxy response \((\d+)\)|\((407)\)$/.exec(failure.message.slice(code.length + 2));
  if (proxy && refusedWith) {
    const status = Number(refusedWith[1] ?? refusedWith[2]);
    const where = `The proxy ${proxy.variable} (${shownProxy(proxy)})`;
    const what = url.protocol === 'https:' ? `a tunnel to ${url.host}` : `requests to ${url.host}`;
    if (status === 407) {
      const fix =
        new URL(proxy.url).username !== ''
          ? `it refuses the user and password in ${proxy.variable}. Check them`
          : `it wants a user and password, and ${proxy.variable} has none. Put them in it`;
      return new HarnessError(
        'PROXY_REFUSED',
        `${where} answered 407 to ${what}: ${fix} (http://USER:PASSWORD@HOST:PORT, percent-encoded).`,
      );
    }
    return new HarnessError(
      'PROXY_REFUSED',
      `${where} refused ${what}: it answered ${status}. Ask for ${url.host} to be let through it, or, when ` +
        `${url.hostname} is reachable without the proxy, add it to NO_PROXY.`,
    );
  }
  const proxyReached = proxy === undefined || request.connections.connected(new URL(proxy.url).origin);
  const dated = outOfDate(code);
  if (proxy && !proxyReached && (NOT_CONNECTED.includes(code) || untrusted(code) !== undefined || dated)) {
    const where = `The proxy ${proxy.variable} (${shownProxy(proxy)}) cannot be reached`;
    if (dated) {
      return new HarnessError(
        'PROXY_UNREACHABLE',
        `${where}: its certificate ${dated.words} (${code}). ` +
          (dated.code === 'TLS_EXPIRED'
            ? `Ask its owners to renew it, or check ${proxy.variable}.`
            : "Check this machine's clock (date -u), else ask its owners for a certificate valid now."),
      );
    }
    const distrust = untrusted(code);
    if (distrust) {
      return new HarnessError(
        'PROXY_UNREACHABLE',
        `${where}: its certificate is not trusted: ${distrust} (${code}). Give ${trustedFix(code)} as PEM with ` +
          '--ca FILE or NODE_EXTRA_CA_CERTS=FILE.',
      );
    }
    const cause = /\((\w+)\)$/.exec(failure.message)?.[1];
    return new HarnessError(
      'PROXY_UNREACHABLE',
      `${where}: ${code}${cause ? ` (${cause})` : ''}. Check ${proxy.variable}, or, when ${url.hostname} is ` +
        'reachable without the proxy, add it to NO_PROXY.',
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (failure.certificateNames ?? []).map((name) => name.replace(/^[A-Za-z ]+:/, ''));
    return new HarnessError(
      'TLS_NAME_MISMATCH',
      `The certificate of ${target} does not cover ${url.hostname}: it covers ${names.join(', ') || 'no name'}. ` +
        `Set ${baseUrlVariable} to a URL with a name it covers.`,
    );
  }
  const distrust = untrusted(code);
  if (distrust) {
    const extra = network.ca ? ` (--ca ${network.ca.file} does not hold it)` : '';
    return new HarnessError(
      'TLS_UNTRUSTED',
      `The certificate of ${target} is not trusted: ${distrust} (${code})${extra}. Give ${trustedFix(code)} as PEM ` +
        'with --ca FILE or NODE_EXTRA_CA_CERTS=FILE.',
    );
  }
  if (dated) {
    const what =
      dated.code === 'TLS_EXPIRED'
        ? `Ask the target's owners to renew it, or set ${baseUrlVariable} to a deployment whose certificate is ` +
          'current.'
        : "Either it was issued for a later date or this machine's clock is behind: check the clock (date -u), " +
          "and if it is right, ask the target's owners for a certificate valid now.";
    return new HarnessError(
      dated.code,
      `The certificate of ${target} ${dated.words} (${code}); no --ca makes it valid. ${what}`,
    );
  }
  if (url.protocol !== 'https:') return undefined;
  const alert = request.connections.alertOf(url.origin) ?? code;
  if (CLIENT_CERT_ALERTS.includes(alert)) return clientCertError(request, alert);
  if (HUNG_UP.includes(code) && request.connections.certificateAsked(url.origin)) {
    const how = code === 'ECONNRESET' ? 'reset' : 'closed';
    const closed = `${how} the connection after the TLS handshake, without answering`;
    return clientCertError(
      request,
      request.network.client ? `it ${closed}: ${code}` : `it asked for one, then ${closed}: ${code}`,
    );
  }
  return undefined;
}

/** Why a certificate is not trusted, in words, by Node's code; undefined for another code. */
function untrusted(code: string): string | undefined {
  return Object.hasOwn(UNTRUSTED, code) ? UNTRUSTED[code] : undefined;
}

/** The error's code and words for a certificate out of its dates, by Node's code; undefined for another code. */
function outOfDate(code: string): (typeof OUT_OF_DATE)[string] | undefined {
  return Object.hasOwn(OUT_OF_DATE, code) ? OUT_OF_DATE[code] : undefined;
}

/** What to give `--ca` for a certificate that is not trusted. */
function trustedFix(code: string): string {
  return code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
    ? 'that certificate itself'
    : "the certificate of the authority that signed it (your company's own)";
}

/** What a gateway answers (400, nginx's words) when it finds no client certificate, or one it does not accept. */
const CLIENT_CERT_ANSWERS = /No required SSL certificate was sent|The SSL certificate error/i;

/**
 * The settings error behind a preflight answer, when it is a gateway's refusal of the client certificate (nginx's
 * `ssl_verify_client` answers 400 after the handshake); undefined for any other answer.
 */
export function clientCertAnswer(
  request: Omit<UnansweredRequest, 'failure' | 'connections'>,
  response: { readonly status: number; readonly text: string },
): HarnessError | undefined {
  const said = response.status === 400 ? CLIENT_CERT_ANSWERS.exec(response.text)?.[0] : undefined;
  if (!said || !request.baseUrl.startsWith('https:')) return undefined;
  return clientCertError(request, `answered 400: "${said}"`);
}

function clientCertError(request: Omit<UnansweredRequest, 'failure' | 'connections'>, seen: string): HarnessError {
  const target = `${request.baseUrlVariable} (${request.baseUrl})`;
  const client = request.network.client;
  return new HarnessError(
    'CLIENT_CERT_REQUIRED',
    client
      ? `${target} refused the client certificate --client-cert ${client.certFile} (${seen}). Give one that its ` +
          'gateway accepts: --client-cert FILE and --client-key FILE.'
      : `${target} wants a client certificate (mutual TLS), and the run gave none (${seen}). Set --client-cert ` +
          `FILE and --client-key FILE (PEM; ${PASSPHRASE_VARIABLE} for an encrypted key).`,
  );
}
