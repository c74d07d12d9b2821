import { API_LIST } from '../apis/index.ts';
import { type LeftChanged, targetOf } from '../apis/descriptor.ts';
import type { RunConfig } from '../settings/config.ts';

/**
 * Loud warnings for the incidents of a run: what it changed on the target and could not put back (a service left
 * stopped, an alert not put back).
 */
export function leftChangedWarnings(incidents: readonly string[]): string[] {
  return incidents.map((incident) => `conformance: WARNING: ${incident}`);
}

/** After a run stopped at once, what it may have changed and not put back, by the probe classes it was allowed. */
export function unknownStateWarnings(config: RunConfig): string[] {
  return API_LIST.flatMap((api) => {
    const target = targetOf(api, config);
    const left: readonly LeftChanged[] = api.leftChanged ?? [];
    return target
      ? left
          .filter(({ allow }) => config.allow.includes(allow))
          .map(({ warning }) => `conformance: WARNING: the run was stopped at once: ${warning(target)}`)
      : [];
  });
}
