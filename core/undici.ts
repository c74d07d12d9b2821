import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/** undici's Agent, and its `request` on a given dispatcher: all a run sends with. */
export interface UndiciParts {
  readonly Agent: typeof Undici.Agent;
  request(
    dispatcher: Undici.Dispatcher,
    options: Undici.Dispatcher.RequestOptions,
  ): Promise<Undici.Dispatcher.ResponseData>;
  /** True when the parts were loaded without undici's index. */
  readonly lean: boolean;
}

const require = createRequire(import.meta.url);

// The one place that relies on undici's private files: test/undici-parts.test.ts names them when a release moves them.

/**
 * undici's files for the Agent and the request API; the package has no exports map, so they are reachable as they are.
 */
export const LEAN_FILES = Object.freeze(['undici/lib/dispatcher/agent.js', 'undici/lib/api/api-request.js'] as const);
const [AGENT_FILE, REQUEST_FILE] = LEAN_FILES;

/**
 * Loads undici's Agent and request API. undici's index also loads fetch, WebSocket, EventSource, the mocks and the
 * caches, which a run never uses: about 60 ms of every thread's start on Node 20, against about 25 ms for these two
 * files. Where a release of undici lays its files out otherwise, the index is used instead (`lean` is then false).
 */
export function loadUndici(): UndiciParts {
  const lean = leanParts();
  if (lean) return lean;
  const undici = require('undici') as typeof Undici;
  return { Agent: undici.Agent, request: (dispatcher, options) => dispatcher.request(options), lean: false };
}

function leanParts(): UndiciParts | undefined {
  let Agent: typeof Undici.Agent;
  let request: (
    this: Undici.Dispatcher,
    options: Undici.Dispatcher.RequestOptions,
  ) => Promise<Undici.Dispatcher.ResponseData>;
  try {
    Agent = require(AGENT_FILE) as typeof Undici.Agent;
    request = require(REQUEST_FILE) as typeof request;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  if (typeof Agent !== 'function' || typeof request !== 'function') return undefined;
  return { Agent, request: (dispatcher, options) => request.call(dispatcher, options), lean: true };
}

/** The parts this thread sends with, loaded once, when this module is. */
export const undici: UndiciParts = loadUndici();

/**
 * undici's ProxyAgent, loaded on first use (a run without a proxy never loads it) from undici's index: it opens its
 * tunnels with the `connect` API, which only the index puts on undici's dispatchers.
 */
export function loadProxyAgent(): typeof Undici.ProxyAgent {
  return (require('undici') as typeof Undici).ProxyAgent;
}
