import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** The TLS alerts that targets sent, by origin, while watched. */
export interface TlsAlerts {
  /** The last TLS alert (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`, ...) an origin's connections received. */
  of(origin: string): string | undefined;
  stop(): void;
}

/** undici's channel for each connection it opens (its documented diagnostics channel). */
const CONNECTED = 'undici:client:connected';

interface Connected {
  readonly connectParams: { readonly protocol: string; readonly host: string };
  readonly socket: NodeJS.EventEmitter;
}

/**
 * Watches the alerts that TLS servers send on undici's connections: an alert after the handshake (TLS 1.3's
 * "certificate required") reaches the request only as "other side closed", which says nothing of its cause.
 */
export function watchTlsAlerts(): TlsAlerts {
  const alerts = new Map<string, string>();
  const onConnected = (message: unknown): void => {
    const { connectParams, socket } = message as Connected;
    if (connectParams.protocol !== 'https:') return;
    socket.on('error', (error: { code?: unknown }) => {
      if (typeof error.code === 'string' && error.code.startsWith('ERR_SSL_'))
        alerts.set(`${connectParams.protocol}//${connectParams.host}`, error.code);
    });
  };
  subscribe(CONNECTED, onConnected);
  return { of: (origin) => alerts.get(origin), stop: () => void unsubscribe(CONNECTED, onConnected) };
}
