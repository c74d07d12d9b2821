import * as tls from 'node:tls';
import type { Dispatcher } from 'undici';
import type { NetworkSettings } from '../settings/network-settings.ts';
import { proxyFor } from '../settings/proxy-route.ts';
import { loadProxyAgent, undici } from './undici.ts';

/** The connection pools of a run: how many connections per origin, and how long to wait for one. */
export interface DispatcherOptions {
  readonly connections: number;
  readonly connectTimeoutMs: number;
  readonly keepAliveTimeoutMs?: number;
}

/** The dispatchers of a run, one per route (direct, or through one proxy), made on first use. */
export interface Dispatchers {
  /** The dispatcher for requests to `url`'s origin: through the proxy that covers it, or direct. */
  of(url: string): Dispatcher;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * Creates a run's dispatchers on its network settings: proxies (undici's ProxyAgent: CONNECT for an https target,
 * the absolute URL to an http proxy for an http target, as curl sends them), the certificate authorities of `--ca`
 * besides the system's, and the client certificate.
 */
export function createDispatchers(network: NetworkSettings | undefined, options: DispatcherOptions): Dispatchers {
  const made = new Map<string, Dispatcher>();
  const pool = {
    connections: options.connections,
    ...(options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs }),
  };
  const authorities = network?.ca ? { ca: [...systemAuthorities(), ...network.ca.certificates] } : {};
  const client = network?.client;
  const target = {
    ...authorities,
    ...(client ? { cert: client.cert, key: client.key, ...optionalPassphrase(client.passphrase) } : {}),
    timeout: options.connectTimeoutMs,
  };
  const of = (url: string): Dispatcher => {
    const proxy = network ? proxyFor(new URL(url), network.proxy) : undefined;
    const key = proxy?.url ?? '';
    let dispatcher = made.get(key);
    if (!dispatcher) {
      dispatcher = proxy
        ? new (loadProxyAgent())({
            ...pool,
            uri: proxy.url,
            proxyTunnel: false,
            requestTls: target,
            proxyTls: { ...authorities, timeout: options.connectTimeoutMs },
          })
        : new undici.Agent({ ...pool, connect: target });
      made.set(key, dispatcher);
    }
    return dispatcher;
  };
  return {
    of,
    close: async () => void (await Promise.all([...made.values()].map((d) => d.close()))),
    destroy: async () => void (await Promise.all([...made.values()].map((d) => d.destroy()))),
  };
}

function optionalPassphrase(passphrase: string | undefined): { passphrase?: string } {
  return passphrase === undefined ? {} : { passphrase };
}

/**
 * The authorities Node trusts by default (with NODE_EXTRA_CA_CERTS, and the system's store where Node is told to use
 * it), to which `--ca` adds: undici's `ca` replaces them otherwise.
 */
function systemAuthorities(): readonly string[] {
  const defaults = (tls as { getCACertificates?: (type: 'default') => string[] }).getCACertificates;
  return defaults ? defaults('default') : tls.rootCertificates;
}
