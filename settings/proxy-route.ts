import { BlockList, isIP } from 'node:net';
import { HarnessError } from '../core/errors.ts';
import {
  NETWORK_VARIABLES,
  type ProxySetting,
  type ProxySettings,
  SOCKS_SCHEMES,
  shownProxy,
} from './network-settings.ts';

/** The names ALL_PROXY goes by: the command's variables, and a settings object's key. */
const ALL_PROXY_VARIABLES: readonly string[] = [...NETWORK_VARIABLES.allProxy, 'allProxy'];

const DEFAULT_PORTS: Readonly<Record<string, number>> = Object.freeze({ 'http:': 80, 'https:': 443 });

/**
 * The proxy a request to `url` goes through, as curl chooses it: `https_proxy` for an https URL, `http_proxy` for an
 * http one (never the other's), none when NO_PROXY covers the host. NO_PROXY is a list (commas or spaces) of host
 * names, each covering itself and its subdomains (a leading `.` or `*.` is dropped), of IP addresses and CIDR ranges
 * (matching IP literals only), each optionally with `:port`; `*` covers every host.
 */
export function proxyFor(url: URL, proxies: ProxySettings): ProxySetting | undefined {
  const proxy = url.protocol === 'https:' ? proxies.https : url.protocol === 'http:' ? proxies.http : undefined;
  if (!proxy || !proxies.noProxy) return proxy;
  return bypassed(url, proxies.noProxy.value) ? undefined : proxy;
}

/**
 * Throws PROXY_UNSUPPORTED when a request to one of `targets` (base URLs) would go through a SOCKS proxy, which a run
 * cannot speak: never a silent direct connection instead.
 */
export function refuseSocks(targets: readonly string[], proxies: ProxySettings): void {
  for (const target of targets) {
    const url = new URL(target);
    const proxy = proxyFor(url, proxies);
    if (!proxy || !SOCKS_SCHEMES.includes(new URL(proxy.url).protocol)) continue;
    const own = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
    const fix = ALL_PROXY_VARIABLES.includes(proxy.variable)
      ? `set ${own} to an HTTP proxy (http://HOST:PORT), which wins over ${proxy.variable}`
      : 'set it to an HTTP proxy (http://HOST:PORT)';
    throw new HarnessError(
      'PROXY_UNSUPPORTED',
      `${proxy.variable} names a SOCKS proxy (${shownProxy(proxy)}) for ${url.host}, and a run speaks to http and ` +
        `https proxies only: ${fix}, or add ${url.hostname} to NO_PROXY when it is reachable without a proxy.`,
    );
  }
}

interface NoProxyEntry {
  readonly host: string;
  readonly port?: number;
}

function bypassed(url: URL, noProxy: string): boolean {
  const host = bare(url.hostname);
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  const family = isIP(host);
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((token) => {
      if (token === '*') return true;
      const entry = parseEntry(token);
      if (entry.port !== undefined && entry.port !== port) return false;
      if (family !== 0) return coversAddress(entry.host, host, family);
      return host === entry.host || host.endsWith(`.${entry.host}`);
    });
}

/** A host without IPv6 brackets, a trailing dot or capitals. */
function bare(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** `[v6]:port`, `[v6]`, `host:port`, a bare IPv6 address or CIDR range, or a host name (`.` or `*.` dropped). */
function parseEntry(token: string): NoProxyEntry {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(token);
  if (bracketed) return withPort(bare(bracketed[1]!), bracketed[2]);
  const hostPort = /^([^:]+):(\d+)$/.exec(token);
  if (hostPort) return withPort(bare(hostPort[1]!.replace(/^\*?\./, '')), hostPort[2]);
  return { host: bare(token.replace(/^\*?\./, '')) };
}

function withPort(host: string, port: string | undefined): NoProxyEntry {
  return port === undefined ? { host } : { host, port: Number(port) };
}

/** True when an IP address entry (or CIDR range) covers an IP literal host. */
function coversAddress(entry: string, host: string, family: number): boolean {
  const [address = '', bits] = entry.split('/');
  const entryFamily = isIP(address);
  if (entryFamily !== family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  const prefix = bits === undefined ? undefined : Number(bits);
  if (prefix === undefined) list.addAddress(address, type);
  else if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128))
    list.addSubnet(address, prefix, type);
  else return false;
  return list.check(host, type);
}
