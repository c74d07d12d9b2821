import fc from 'fast-check';
import { createPipeCommand } from './sequence-pipe-create.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import { readPipeSettings, readPipeSettingsCommand } from './sequence-pipe-settings.ts';
import { updatePipeCommand } from './sequence-pipe-update.ts';
import { runSequences, type SequenceCommand } from './sequence-run.ts';
import type { ProbeGroup } from './suite-types.ts';

/** Steps of one pipes sequence at most. */
export const PIPE_SEQUENCE_STEPS = 16;

/** Pipes sequences of a run at most: they run at once, so a run's time grows with their length, not their number. */
const MAX_PIPE_SEQUENCES = 8;

/** Pipes sequences of a run with `runs` examples per property: two per example (a sequence finds less than a request), four at least. */
const sequences = (runs: number): number => Math.min(Math.max(2 * runs, 4), MAX_PIPE_SEQUENCES);

/** The rules a pipes sequence judges against its model: a step that breaks one ends the sequence, which is shrunk. */
const JUDGED = Object.freeze(['pipes.state-consistent', 'pipes.update-applies']);

/** The commands a pipes sequence draws from, each as often as it is listed: most sequences create two pipes early, then update them (the final read-back reads each). */
const COMMANDS = (): fc.Arbitrary<SequenceCommand<PipeModel>>[] => {
  const [create, update, read] = [createPipeCommand(), updatePipeCommand(), readPipeSettingsCommand()];
  return [create, create, create, update, update, update, update, read];
};

/** The group that sends model-based sequences of pipe creates, updates and settings reads, several at once. */
export function pipeSequences(): ProbeGroup {
  return {
    name: 'model-based sequences of pipes',
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    feeds: ['pipes.state-consistent', 'pipes.update-applies'],
    estimate: (runs) => sequences(runs) * (PIPE_SEQUENCE_STEPS + MAX_SEQUENCE_PIPES),
    run: (context) =>
      runSequences<PipeModel>(context, {
        property: 'pipes/sequences',
        commands: fc.commands(COMMANDS(), { maxCommands: PIPE_SEQUENCE_STEPS, size: 'max' }),
        setup: async () => ({ pipes: [] }),
        async finish(model, real) {
          for (const pipe of model.pipes) await readPipeSettings(model, pipe, real);
        },
        rules: JUDGED,
        count: sequences(context.config.runs),
        width: context.config.concurrency,
      }),
  };
}
