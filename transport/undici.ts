import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/** undici's Agent, whose dispatch API a run sends with (transport/whole-answer.ts). */
export interface UndiciParts {
  readonly Agent: typeof Undici.Agent;
  /** True when the Agent was loaded without undici's index. */
  readonly lean: boolean;
}

const require = createRequire(import.meta.url);

// The one place that relies on undici's private files: test/undici-parts.test.ts names them when a release moves them.

/** undici's file for the Agent; the package has no exports map, so it is reachable as it is. */
export const LEAN_FILES = Object.freeze(['undici/lib/dispatcher/agent.js'] as const);
const [AGENT_FILE] = LEAN_FILES;

/**
 * Loads undici's Agent. undici's index also loads fetch, WebSocket, EventSource, the mocks, the caches and the
 * request API's streams, which a run never uses: about 60 ms of every thread's start on Node 20, against about 20 ms
 * for this file. Where a release of undici lays its files out otherwise, the index is used instead (`lean` is then
 * false).
 */
export function loadUndici(): UndiciParts {
  const lean = leanParts();
  if (lean) return lean;
  return { Agent: (require('undici') as typeof Undici).Agent, lean: false };
}

function leanParts(): UndiciParts | undefined {
  let Agent: typeof Undici.Agent;
  try {
    Agent = require(AGENT_FILE) as typeof Undici.Agent;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  if (typeof Agent !== 'function') return undefined;
  return { Agent, lean: true };
}

/** The Agent this thread sends with, loaded once, when this module is. */
export const undici: UndiciParts = loadUndici();

/**
 * undici's ProxyAgent, loaded on first use (a run without a proxy never loads it) from undici's index: it opens its
 * tunnels with the `connect` API, which only the index puts on undici's dispatchers.
 */
export function loadProxyAgent(): typeof Undici.ProxyAgent {
  return (require('undici') as typeof Undici).ProxyAgent;
}
