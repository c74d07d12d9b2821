import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** What undici's connections met, by origin, while watched. */
export interface ConnectionWatch {
  /** The last TLS alert (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, ...) an origin's connections received. */
  alertOf(origin: string): string | undefined;
  /** True once a connection to the origin (a target, or a proxy) was made, its TLS handshake done. */
  connected(origin: string): boolean;
  /** True when a TLS server of the origin asked for a client certificate in a handshake (a CertificateRequest). */
  certificateAsked(origin: string): boolean;
  stop(): void;
}

/** undici's channel for each connection it opens (its documented diagnostics channel). */
const CONNECTED = 'undici:client:connected';

interface Connected {
  readonly connectParams: { readonly protocol: string; readonly host: string };
  readonly socket: NodeJS.EventEmitter & { getSharedSigalgs?: () => string[] };
}

/**
 * Watches undici's connections: which origins were reached, which TLS servers asked for a client certificate, and the
 * alerts they sent (an alert after the handshake, TLS 1.3's "certificate required", reaches the request only as "other
 * side closed", as does a gateway's hang-up without one).
 */
export function watchConnections(): ConnectionWatch {
  const alerts = new Map<string, string>();
  const reached = new Set<string>();
  const asked = new Set<string>();
  const onConnected = (message: unknown): void => {
    const { connectParams, socket } = message as Connected;
    const origin = `${connectParams.protocol}//${connectParams.host}`;
    reached.add(origin);
    if (connectParams.protocol !== 'https:') return;
    // A client learns the server's signature algorithms only from its CertificateRequest: none shared, none asked.
    if ((socket.getSharedSigalgs?.() ?? []).length > 0) asked.add(origin);
    socket.on('error', (error: { code?: unknown }) => {
      if (typeof error.code === 'string' && error.code.startsWith('ERR_SSL_')) alerts.set(origin, error.code);
    });
  };
  subscribe(CONNECTED, onConnected);
  return {
    alertOf: (origin) => alerts.get(origin),
    connected: (origin) => reached.has(origin),
    certificateAsked: (origin) => asked.has(origin),
    stop: () => void unsubscribe(CONNECTED, onConnected),
  };
}
