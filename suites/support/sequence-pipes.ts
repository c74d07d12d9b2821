import fc from 'fast-check';
import { ONE_AT_A_TIME } from './at-once.ts';
import { patchPipeAtOnceCommand } from './sequence-pipe-at-once.ts';
import { createPipeCommand } from './sequence-pipe-create.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import { readPipeSettings, readPipeSettingsCommand } from './sequence-pipe-settings.ts';
import { updatePipeCommand } from './sequence-pipe-update.ts';
import { type ReadBack, runSequences, type SequenceCommand } from '../../engine/sequence-run.ts';
import { leftOutWhenShrunk, shrinkChoice } from '../../engine/sequence-shrink-choice.ts';
import type { ProbeGroup } from '../../engine/suite-types.ts';

/** Steps of one pipes sequence at most. */
export const PIPE_SEQUENCE_STEPS = 12;

/**
 * Requests of one pipes sequence on a target that accepts every step: its commands, then reads of its pipes' settings.
 */
const PIPE_SEQUENCE_LENGTH = PIPE_SEQUENCE_STEPS + MAX_SEQUENCE_PIPES;

/** Pipes sequences of a run at most: they run at once, so a run's time grows with their length, not their number. */
const MAX_PIPE_SEQUENCES = 8;

/**
 * Pipes sequences of a run with `runs` examples per property: two per example (a sequence finds less than a request),
 * four at least.
 */
const sequences = (runs: number): number => Math.min(Math.max(2 * runs, 4), MAX_PIPE_SEQUENCES);

/** The rules a pipes sequence judges against its model: a step that breaks one ends the sequence, which is shrunk. */
const JUDGED = Object.freeze(['pipes.state-consistent', 'pipes.update-applies', 'pipes.concurrent-updates']);

/**
 * The commands a pipes sequence draws from, each as often as it is listed: most sequences create two pipes early, then
 * update them (the final read-back reads each). Shrinking may leave out any of them, the last one too.
 */
const COMMANDS = (): fc.Arbitrary<SequenceCommand<PipeModel>>[] => {
  const create = leftOutWhenShrunk(createPipeCommand());
  const update = leftOutWhenShrunk(updatePipeCommand());
  const read = leftOutWhenShrunk(readPipeSettingsCommand());
  const atOnce = leftOutWhenShrunk(patchPipeAtOnceCommand());
  return [create, create, create, update, update, update, update, read, atOnce];
};

/**
 * A pipes sequence reads back every pipe it created; shrinking may narrow that to one of them, so that a failure the
 * read-back shows needs no read of another pipe before it.
 */
const READ_BACK = shrinkChoice<ReadBack>(
  'every',
  Array.from({ length: MAX_SEQUENCE_PIPES }, (_, index) => index),
);

/** The group that sends model-based sequences of pipe creates, updates and settings reads, several at once. */
export function pipeSequences(): ProbeGroup {
  return {
    name: 'model-based sequences of pipes',
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    feeds: ['pipes.state-consistent', 'pipes.update-applies', 'pipes.concurrent-updates'],
    sequences: true,
    estimate: (runs) => sequences(runs) * PIPE_SEQUENCE_LENGTH,
    run: (context) => {
      const [fallbackCreate] = fc.sample(createPipeCommand(), { seed: context.config.seed, numRuns: 1 }) as [
        SequenceCommand<PipeModel>,
      ];
      if (context.config.concurrency < 2)
        context.unable(ONE_AT_A_TIME, { operations: ['updatePipe'], feeds: ['pipes.concurrent-updates'] });
      return runSequences<PipeModel>(context, {
        property: 'pipes/sequences',
        commands: fc.commands(COMMANDS(), { maxCommands: PIPE_SEQUENCE_STEPS, size: 'max' }),
        readBack: READ_BACK,
        setup: async (real) => ({ pipes: [], room: real.room }),
        async finish(model, real, sent, readBack) {
          // A sequence whose commands created no pipe creates one (drawn from the run's seed) to read back.
          let step = sent;
          if (model.pipes.length === 0) {
            await fallbackCreate.run(model, real);
            step += 1;
          }
          if (model.pipes.length === 0) return;
          if (readBack !== 'every') return readPipeSettings(model, model.pipes[readBack % model.pipes.length]!, real);
          // Every pipe once, then round again: a sequence sends as many steps as the plan counts.
          for (let at = 0; at < model.pipes.length || step < PIPE_SEQUENCE_LENGTH; step++, at++) {
            await readPipeSettings(model, model.pipes[at % model.pipes.length]!, real);
          }
        },
        rules: JUDGED,
        commandRequests: PIPE_SEQUENCE_STEPS,
        count: sequences(context.config.runs),
        width: context.config.concurrency,
      });
    },
  };
}
