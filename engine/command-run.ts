import { loadShippedSpecs } from '../spec/prepared-specs.ts';
import { openRunChannel, type RunLink } from '../run/run-channel.ts';
import { startRun, type SuitesSource } from './run-suites.ts';
import type { PreparedRun } from '../run/run-settings.ts';
import type { Specs } from '../spec/spec.ts';
import { prepareRun, type SuiteFactories } from './prepare-run.ts';
import { createRedactor, type Redactor } from '../secrets/redaction.ts';
import { createSecretRegistry, redactedNames } from '../secrets/secret-registry.ts';
import { judgeSuite, verdictCount } from './suite-verdicts.ts';

/**
 * The command's run, in the thread it started for it (cli/run-worker.ts; in its own thread for a run of the sources):
 * prepared from the settings the command pushed (`link`), started, and judged, each suite as soon as its groups are
 * through; everything goes back to the command on the run's channel (prepared or why not, each suite judged, finished).
 * `suites`: the suite definitions, which the suites' side passes in. Settles once the run is finished.
 */
export async function runCommandSuites(link: RunLink, suites: SuiteFactories): Promise<void> {
  const channel = openRunChannel(link);
  let prepared: PreparedRun;
  let specs: Specs;
  let redactor: Redactor;
  try {
    specs = await loadShippedSpecs();
    // The thread's one redactor, on the run's one registry of secrets: the preflight's and the session's.
    redactor = createRedactor(redactedNames(specs), createSecretRegistry(link.settings.config));
    prepared = await prepareRun(link.settings, specs, suites, redactor);
  } catch (error) {
    channel.prepared({ error });
    channel.close();
    return;
  }
  try {
    const run = prepared;
    const source: SuitesSource = { config: run.config, specs, channel: link, redactor, prepare: async () => ({ run }) };
    const started = startRun(
      source,
      run,
      suites.map((suite) => suite()),
    );
    channel.prepared({
      run,
      verdicts: verdictCount(
        specs,
        started.states.map((state) => state.definition),
      ),
    });
    await Promise.all(
      started.states.map(async (state, index) => {
        await state.done;
        channel.judged(index, judgeSuite(run, specs, state, redactor.text));
      }),
    );
    await started.finished.catch(() => undefined);
  } finally {
    channel.finished();
    channel.close();
  }
}
