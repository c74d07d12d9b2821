import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REFERENCE_APIS } from './apis.ts';
import { selectFaults } from './faults.ts';
import { composeHooks } from './hooks.ts';
import { selectModes } from './modes.ts';
import { createRequestListener, type PipelineOptions } from './pipeline.ts';
import { createStore } from './store.ts';

/** How to start the reference target; every field is optional. */
export interface ReferenceOptions {
  /** Fault names from the fault table. */
  readonly faults?: readonly string[];
  /** Mode names from the mode table. */
  readonly modes?: readonly string[];
  /** Interface to listen on; 127.0.0.1 by default. */
  readonly host?: string;
  /** Port of the management API; 0 (any free port) by default. */
  readonly managementPort?: number;
  /** Port of the alerts API; 0 (any free port) by default. */
  readonly alertsPort?: number;
}

/** An API a running reference target serves: where, and the settings that point a run at it. */
export interface ServedApi {
  readonly name: string;
  readonly url: string;
  /** The settings a run against it needs, under the harness's environment variables (`ALERTS_TOKEN`: ...). */
  readonly settings: Readonly<Record<string, string>>;
  /** Settings `conformance reference` prints beside those, which the embedded run leaves for the run to choose. */
  readonly suggested: Readonly<Record<string, string>>;
}

/** A running reference target: where it listens, the seeded ids, fresh credentials, and how to stop it. */
export interface ReferenceTarget {
  /** Every API it serves, in the order of its list. */
  readonly apis: readonly ServedApi[];
  readonly managementUrl: string;
  readonly alertsUrl: string;
  readonly organizationId: string;
  readonly serviceId: string;
  readonly backupId: string;
  /** The run's team's alerts. */
  readonly alertIds: readonly string[];
  readonly managementKeyId: string;
  readonly managementKeySecret: string;
  readonly alertsToken: string;
  readonly faults: readonly string[];
  readonly modes: readonly string[];
  /** Stops both servers, ending open connections. */
  readonly close: () => Promise<void>;
}

/** Starts every API of the reference target's list in memory on loopback, with the faults and modes asked for. */
export async function startReference(options: ReferenceOptions = {}): Promise<ReferenceTarget> {
  const faults = selectFaults(options.faults ?? []);
  const modes = selectModes(options.modes ?? []);
  const host = options.host ?? '127.0.0.1';
  const store = createStore();
  const hooks = composeHooks([...faults.map((f) => f.install(store)), ...modes.map((m) => m.install(store))]);
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 0;
  const shared = {
    store,
    hooks,
    nextSequence: () => (sequence += 1),
    schedule: (delayMs: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, delayMs);
      timers.add(timer);
    },
  };
  const servers = REFERENCE_APIS.map((api) => ({ api, server: serverFor({ ...shared, api }) }));
  const close = async (): Promise<void> => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    await Promise.all(servers.map(({ server }) => stop(server)));
  };
  try {
    for (const { api, server } of servers) await listen(server, host, (api.portOption && options[api.portOption]) ?? 0);
  } catch (error) {
    await close();
    throw new Error(`reference target could not listen on ${host}: ${(error as Error).message}`, { cause: error });
  }
  const apis = servers.map(({ api, server }) => {
    const url = urlOf(server, host);
    return Object.freeze({
      name: api.name,
      url,
      settings: Object.freeze(api.settings(store, url)),
      suggested: Object.freeze(api.suggested?.(store) ?? {}),
    });
  });
  const urlOfApi = (name: string): string => apis.find((api) => api.name === name)?.url ?? '';
  return Object.freeze({
    apis: Object.freeze(apis),
    managementUrl: urlOfApi('management'),
    alertsUrl: urlOfApi('alerts'),
    organizationId: store.organizationId,
    serviceId: store.serviceId,
    backupId: store.backupId,
    alertIds: Object.freeze([...store.alerts.values()].filter((a) => a.team === store.team).map((a) => a.id)),
    managementKeyId: store.managementKeyId,
    managementKeySecret: store.managementKeySecret,
    alertsToken: store.alertsToken,
    faults: Object.freeze(faults.map((f) => f.name)),
    modes: Object.freeze(modes.map((m) => m.name)),
    close,
  });
}

function serverFor(options: PipelineOptions): Server {
  const server = createServer(createRequestListener(options));
  server.keepAliveTimeout = 5_000;
  return server;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
