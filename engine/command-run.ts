import { loadShippedSpecs } from '../core/prepared-specs.ts';
import { openRunChannel, type RunLink } from '../core/run-channel.ts';
import { startRun, type SuitesSource } from './run-suites.ts';
import { prepareRun, type SuiteFactories } from './prepare-run.ts';
import { createRedactor } from '../core/redaction.ts';
import { createSecretRegistry, redactedNames } from '../core/secret-registry.ts';

/** The run this thread prepares, by channel: the early worker prepares it, and the suite file finds it prepared. */
const prepared = new Map<string, Promise<SuitesSource>>();

/**
 * The command's run in vitest's worker thread, prepared here once from the settings the command pushed (`link`: the
 * early worker's data, or vitest's `provide`), and told back to the command; the worker the command starts early
 * prepares it as soon as it has loaded the harness, and the suite file, in the same thread, finds it prepared.
 * `suites`: the suite definitions, which the suites' side passes in.
 */
export function commandRun(link: RunLink, suites: SuiteFactories): Promise<SuitesSource> {
  let run = prepared.get(link.channel);
  if (!run) {
    run = prepare(link, suites);
    prepared.set(link.channel, run);
  }
  return run;
}

async function prepare(link: RunLink, suites: SuiteFactories): Promise<SuitesSource> {
  const channel = openRunChannel(link);
  try {
    const specs = await loadShippedSpecs();
    // The worker thread's one redactor, on the run's one registry of secrets: the preflight's and the session's.
    const redactor = createRedactor(redactedNames(specs), createSecretRegistry(link.settings.config));
    const run = await prepareRun(link.settings, specs, suites, redactor);
    channel.prepared({ run });
    const source: SuitesSource = { config: run.config, specs, channel: link, redactor, prepare: async () => ({ run }) };
    // The groups start now, not once vitest has declared the suite file's tests: those read the states as they settle.
    return {
      ...source,
      started: startRun(
        source,
        run,
        suites.map((suite) => suite()),
      ),
    };
  } catch (error) {
    channel.prepared({ error });
    throw error;
  } finally {
    channel.close();
  }
}
