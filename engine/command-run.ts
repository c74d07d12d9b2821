import { loadShippedSpecs } from '../core/prepared-specs.ts';
import { openRunChannel } from '../core/run-channel.ts';
import type { SuitesSource } from '../suites/support/conformance-suite.ts';
import { prepareRun } from './prepare-run.ts';

/**
 * The command's run in vitest's worker thread: prepared here from the settings the command sends over the run's
 * channel (`channel`, its name) when this is the first to ask, else as the thread that asked first prepared it.
 * The worker the command starts early asks as soon as it has loaded the harness, and the suite file asks again.
 */
export async function commandRun(channel: string): Promise<SuitesSource> {
  const specs = await loadShippedSpecs();
  const settings = openRunChannel(channel);
  try {
    const run = await settings.preparedRun((given) => prepareRun(given, specs));
    return { config: run.config, specs, channel, prepare: async () => ({ run }) };
  } finally {
    settings.close();
  }
}
