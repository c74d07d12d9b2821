import { API_LIST } from '../apis/index.ts';
import type { RunConfig } from '../settings/config.ts';

/** The first line a run prints: which target it tests, plainly, and what it leaves out. */
export function targetLine(config: RunConfig): string {
  if (config.reference) {
    const { faults, modes } = config.reference;
    return (
      'Testing the embedded reference target (faults: ' +
      `${faults.length > 0 ? faults.join(', ') : 'none'}${modes.length > 0 ? `; modes: ${modes.join(', ')}` : ''})`
    );
  }
  const tested = API_LIST.flatMap((api) => {
    const target = config[api.name];
    // The headers a run adds are named, never their values (secrets).
    const headers = Object.keys(config.headers?.[api.name] ?? {});
    const adding = headers.length > 0 ? ` with ${headers.join(', ')} (--header, values not shown)` : '';
    return target ? [`${api.name} API at ${target.baseUrl}${adding}`] : [];
  });
  const left = Object.entries(config.unconfigured).map(([api, why]) => `${api} API, ${why}`);
  return `Testing ${tested.join(', ')}${left.length > 0 ? ` (not under test: ${left.join('; ')})` : ''}`;
}
