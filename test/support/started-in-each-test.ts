import type { Server } from 'node:http';
import { afterEach } from 'vitest';
import { type ReferenceTarget, startReference } from '../../reference/server.ts';

/** What the tests of a block start, each closed after the test that started it. */
export interface StartedInEachTest {
  /** Keeps a started server (a proxy, a gateway) to close after the test; gives it back. */
  server<T extends { readonly server: Server }>(started: T): T;
  /** Starts a reference target, closed after the test. */
  reference(): Promise<ReferenceTarget>;
}

/** Closes, after each test of the block that calls it, the servers and reference targets its tests started. */
export function startedInEachTest(): StartedInEachTest {
  const servers: Server[] = [];
  const references: ReferenceTarget[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const reference of references.splice(0)) await reference.close();
  });
  return {
    server: (started) => {
      servers.push(started.server);
      return started;
    },
    reference: async () => {
      const reference = await startReference();
      references.push(reference);
      return reference;
    },
  };
}
