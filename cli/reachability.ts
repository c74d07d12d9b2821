import { request } from 'undici';
import type { RunConfig } from '../core/config.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { HarnessError } from '../core/errors.ts';

/** Failures before any HTTP exchange: the target is not there. A target that connects and then hangs or resets is judged by the run. */
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT|ERR_TLS|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/;

/** Checks that every configured base URL answers HTTP at all; a target that cannot be reached is TARGET_UNREACHABLE. */
export async function assertReachable(config: RunConfig): Promise<void> {
  const targets = [
    ...(config.management ? [{ name: 'MANAGEMENT_BASE_URL', url: config.management.baseUrl }] : []),
    ...(config.alerts ? [{ name: 'ALERTS_BASE_URL', url: config.alerts.baseUrl }] : []),
  ];
  await Promise.all(targets.map(async ({ name, url }) => {
    try {
      const timeout = Math.min(config.timeoutMs, DEFAULTS.reachabilityTimeoutMs);
      const res = await request(url, { method: 'GET', headersTimeout: timeout, bodyTimeout: timeout, signal: AbortSignal.timeout(timeout) });
      await res.body.dump();
    } catch (error) {
      const err = error as { code?: string; message?: string; cause?: { code?: string } };
      const why = err.cause?.code ?? err.code ?? err.message ?? String(error);
      if (!UNREACHABLE.test(why)) return;
      throw new HarnessError('TARGET_UNREACHABLE', `Cannot reach ${name} (${url}): ${why}. Check the URL and that the target is up.`, { cause: error });
    }
  }));
}
