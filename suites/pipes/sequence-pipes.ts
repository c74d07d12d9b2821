import fc from 'fast-check';
import { ONE_AT_A_TIME } from '../../engine/suite-types.ts';
import { patchPipeAtOnceCommand } from './sequence-pipe-at-once.ts';
import { createPipeCommand } from './sequence-pipe-create.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import { readPipeSettings, readPipeSettingsCommand } from './sequence-pipe-settings.ts';
import { updatePipeCommand } from './sequence-pipe-update.ts';
import { refusedPipeUpdateCommand, sendsAtOnceAndRefused } from './sequence-pipe-refused.ts';
import { runSequences, sequenceCommands } from '../../engine/sequence-run.ts';
import type { ReadBack, SequenceCommand } from '../../engine/sequence-types.ts';
import { leftOutWhenShrunk, shrinkChoice } from '../../engine/sequence-shrink-choice.ts';
import type { ProbeGroup } from '../../engine/suite-types.ts';
import { REFUSED_WRITE_PARTS } from '../../rules/writes.ts';
import { noOpenValues, type OpenFieldValues, type OpenValues } from './open-values.ts';
import { PIPE_KINDS, pipeCreateBody, type PipeKind } from '../../generators/index.ts';

/**
 * Requests of one pipes sequence on a target that accepts every step: the creates of its pipes, its commands, then
 * reads of its pipes' settings.
 */
const PIPE_SEQUENCE_LENGTH = 14;

/** Commands of one pipes sequence at most: what its creates and its read-back of every pipe leave of its length. */
export const PIPE_SEQUENCE_STEPS = PIPE_SEQUENCE_LENGTH - 2 * MAX_SEQUENCE_PIPES;

/** Pipes sequences of a run at most: they run at once, so a run's time grows with their length, not their number. */
const MAX_PIPE_SEQUENCES = 8;

/**
 * Pipes sequences of a run with `runs` examples per property: two per example (a sequence finds less than a request),
 * four at least.
 */
const sequences = (runs: number): number => Math.min(Math.max(2 * runs, 4), MAX_PIPE_SEQUENCES);

/** The rules a pipes sequence judges against its model: a step that breaks one ends the sequence, which is shrunk. */
const JUDGED = Object.freeze([
  'pipes.state-consistent',
  'pipes.update-applies',
  'pipes.concurrent-updates',
  'writes.refused-unchanged',
]);

/**
 * The commands a pipes sequence draws from, by weight: four updates to a settings read (the read-back reads every pipe
 * too, so that a sequence sends at least as many updates as reads), and in every sequence PATCHes at once and an update
 * built to be refused. Shrinking may leave out any of them, the last one too.
 */
const COMMANDS = (open: OpenFieldValues): fc.Arbitrary<Iterable<SequenceCommand<PipeModel>>> =>
  sequenceCommands(
    PIPE_SEQUENCE_STEPS,
    [
      { weight: 4, arbitrary: leftOutWhenShrunk(updatePipeCommand(open)) },
      { weight: 1, arbitrary: leftOutWhenShrunk(readPipeSettingsCommand()) },
      { weight: 1, arbitrary: leftOutWhenShrunk(patchPipeAtOnceCommand(open)) },
      { weight: 1, arbitrary: leftOutWhenShrunk(refusedPipeUpdateCommand()) },
    ],
    (first) => sendsAtOnceAndRefused(first, PIPE_SEQUENCE_STEPS),
  );

/** The places of a sequence's pipes, in the order of their creates. */
const PLACES = Array.from({ length: MAX_SEQUENCE_PIPES }, (_, index) => index);

/**
 * A pipes sequence starts by creating its pipes, so that every command it draws finds one; shrinking may keep only one
 * of them.
 */
const START = (open: OpenFieldValues, kinds: readonly PipeKind[]) =>
  fc
    .tuple(
      shrinkChoice<'every' | number>('every', PLACES),
      fc.array(createPipeCommand(open, kinds), { minLength: MAX_SEQUENCE_PIPES, maxLength: MAX_SEQUENCE_PIPES }),
    )
    .map(([kept, creates]) => (kept === 'every' ? creates : [creates[kept]!]));

/**
 * A pipes sequence reads back every pipe it created; shrinking may narrow that to one of them, so that a failure the
 * read-back shows needs no read of another pipe before it.
 */
const READ_BACK = shrinkChoice<ReadBack>('every', PLACES);

/** The name of the group of pipe sequences. */
export const PIPE_SEQUENCES = 'model-based sequences of pipes';

/**
 * The group that sends model-based sequences of pipe creates, updates and settings reads, several at once, after the
 * group `learn` that learns the values of the open fields.
 */
export function pipeSequences(values: OpenValues, learn: string): ProbeGroup {
  return {
    name: PIPE_SEQUENCES,
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    feeds: [
      'pipes.state-consistent',
      'pipes.update-applies',
      'pipes.concurrent-updates',
      `writes.refused-unchanged#${REFUSED_WRITE_PARTS.sequences}`,
    ],
    sequences: true,
    after: [learn],
    estimate: (runs) => sequences(runs) * PIPE_SEQUENCE_LENGTH,
    run: (context) => {
      const open = { values, create: context.openFields('createPipe'), update: context.openFields('updatePipe') };
      // The kinds whose open fields the target gave values of: the only ones a sequence creates.
      const missing = PIPE_KINDS.map((kind) => {
        const [sample] = fc.sample(pipeCreateBody({ kind }), { seed: context.config.seed, numRuns: 1 });
        return { kind, missing: values.missing(open.create, sample!) };
      });
      const kinds = missing.filter((kind) => kind.missing.length === 0).map(({ kind }) => kind);
      const unknown = [...new Set(missing.flatMap((kind) => kind.missing))];
      if (kinds.length === 0) return Promise.resolve(context.unable(noOpenValues(unknown)));
      if (unknown.length > 0)
        context.unable(
          `no ${missing
            .filter((kind) => kind.missing.length > 0)
            .map(({ kind }) => kind)
            .join(' or ')} pipe is created in a sequence: ${noOpenValues(unknown)}`,
          { operations: ['createPipe'] },
        );
      const [fallbackCreate] = fc.sample(createPipeCommand(open, kinds), { seed: context.config.seed, numRuns: 1 }) as [
        SequenceCommand<PipeModel>,
      ];
      if (context.config.concurrency < 2)
        context.unable(ONE_AT_A_TIME, { operations: ['updatePipe'], feeds: ['pipes.concurrent-updates'] });
      return runSequences<PipeModel, SequenceCommand<PipeModel>[]>(context, {
        property: 'pipes/sequences',
        start: START(open, kinds),
        commands: COMMANDS(open),
        readBack: READ_BACK,
        async setup(real, creates) {
          const model: PipeModel = { pipes: [], room: real.room };
          for (const create of creates) await create.run(model, real);
          return model;
        },
        async finish(model, real, sent, readBack) {
          // A sequence whose creates were all refused creates one (drawn from the run's seed) to read back.
          let step = sent;
          if (model.pipes.length === 0) {
            await fallbackCreate.run(model, real);
            step += 1;
          }
          if (model.pipes.length === 0) return;
          if (readBack !== 'every') {
            await readPipeSettings(model, model.pipes[readBack % model.pipes.length]!, real);
            return;
          }
          // Every pipe once, then round again: a sequence sends as many steps as the plan counts.
          for (let at = 0; at < model.pipes.length || step < PIPE_SEQUENCE_LENGTH; step++, at++) {
            await readPipeSettings(model, model.pipes[at % model.pipes.length]!, real);
          }
        },
        rules: JUDGED,
        // Its creates and commands; the read-back fills up to the plan.
        commandRequests: PIPE_SEQUENCE_LENGTH - MAX_SEQUENCE_PIPES,
        count: sequences(context.config.runs),
        width: context.config.concurrency,
      });
    },
  };
}
