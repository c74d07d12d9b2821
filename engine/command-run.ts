import { loadShippedSpecs } from '../core/prepared-specs.ts';
import { openRunChannel } from '../core/run-channel.ts';
import type { SuitesSource } from './run-suites.ts';
import { prepareRun, type SuiteFactories } from './prepare-run.ts';

/**
 * The command's run in vitest's worker thread: prepared here from the settings the command sends over the run's
 * channel (`channel`, its name) when this is the first to ask, else as the thread that asked first prepared it.
 * The worker the command starts early asks as soon as it has loaded the harness, and the suite file asks again.
 * `suites`: the suite definitions, which the suites' side passes in.
 */
export async function commandRun(channel: string, suites: SuiteFactories): Promise<SuitesSource> {
  const specs = await loadShippedSpecs();
  const settings = openRunChannel(channel);
  try {
    const run = await settings.preparedRun((given) => prepareRun(given, specs, suites));
    return { config: run.config, specs, channel, prepare: async () => ({ run }) };
  } finally {
    settings.close();
  }
}
