import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** What undici's connections met, by origin, while watched. */
export interface ConnectionWatch {
  /** The last TLS alert (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, ...) an origin's connections received. */
  alertOf(origin: string): string | undefined;
  /** True once a connection to the origin (a target, or a proxy) was made, its TLS handshake done. */
  connected(origin: string): boolean;
  stop(): void;
}

/** undici's channel for each connection it opens (its documented diagnostics channel). */
const CONNECTED = 'undici:client:connected';

interface Connected {
  readonly connectParams: { readonly protocol: string; readonly host: string };
  readonly socket: NodeJS.EventEmitter;
}

/**
 * Watches undici's connections: which origins were reached, and the alerts that TLS servers sent on them (an alert
 * after the handshake, TLS 1.3's "certificate required", reaches the request only as "other side closed").
 */
export function watchConnections(): ConnectionWatch {
  const alerts = new Map<string, string>();
  const reached = new Set<string>();
  const onConnected = (message: unknown): void => {
    const { connectParams, socket } = message as Connected;
    const origin = `${connectParams.protocol}//${connectParams.host}`;
    reached.add(origin);
    if (connectParams.protocol !== 'https:') return;
    socket.on('error', (error: { code?: unknown }) => {
      if (typeof error.code === 'string' && error.code.startsWith('ERR_SSL_')) alerts.set(origin, error.code);
    });
  };
  subscribe(CONNECTED, onConnected);
  return {
    alertOf: (origin) => alerts.get(origin),
    connected: (origin) => reached.has(origin),
    stop: () => void unsubscribe(CONNECTED, onConnected),
  };
}
