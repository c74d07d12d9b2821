import { BlockList, isIP } from 'node:net';
import type { ProxySetting, ProxySettings } from './network-settings.ts';

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
