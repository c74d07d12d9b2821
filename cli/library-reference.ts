import { settingsOfVariables } from '../settings/config.ts';
import {
  type ReferenceOptions,
  type ReferenceTarget,
  startReference as startReferenceTarget,
} from '../reference/server.ts';
import type { ConformanceSettings } from './run-conformance.ts';

/** The embedded reference target as the library starts it, with the settings that point a run at it. */
export interface LibraryReferenceTarget extends ReferenceTarget {
  /**
   * The settings of `runConformance` (and `conformanceSuites`) that point a run at this target: both URLs, the
   * credentials, the organization, service, backup and a tile alert, and another organization's key and another team's
   * token; spread it and add your own (`{ ...target.settings, reportDir }`).
   */
  readonly settings: ConformanceSettings;
}

/** Starts the embedded reference target (both APIs in memory on loopback), with `settings` for `runConformance`. */
export async function startReference(options: ReferenceOptions = {}): Promise<LibraryReferenceTarget> {
  const target = await startReferenceTarget(options);
  const variables = Object.assign({}, ...target.apis.map((api) => ({ ...api.settings, ...api.suggested })));
  return Object.freeze({ ...target, settings: Object.freeze(settingsOfVariables(variables)) });
}
