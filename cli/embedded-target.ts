import { withTargets, type RunConfig } from '../settings/config.ts';
import { HarnessError } from '../core/errors.ts';

/** The embedded reference target, started in this thread, and the settings that point the run at it. */
export interface EmbeddedTarget {
  readonly config: RunConfig;
  close(): Promise<void>;
}

/** Starts the embedded reference target with the run's faults and modes; REFERENCE_FAILED when it cannot listen. */
export async function startEmbedded(config: RunConfig): Promise<EmbeddedTarget> {
  try {
    const { startReference } = await import('../reference/server.ts');
    const target = await startReference({
      faults: config.reference?.faults ?? [],
      modes: config.reference?.modes ?? [],
    });
    const settings = Object.assign({}, ...target.apis.map((api) => api.settings));
    try {
      return { config: withTargets(config, settings), close: () => target.close() };
    } catch (error) {
      await target.close();
      throw error;
    }
  } catch (error) {
    throw new HarnessError(
      'REFERENCE_FAILED',
      `The embedded reference target did not start: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
