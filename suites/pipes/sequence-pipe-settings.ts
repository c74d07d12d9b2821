import fc from 'fast-check';
import type { Exchange } from '../../transport/exchange.ts';
import { accept } from '../../engine/probe.ts';
import { MAX_SEQUENCE_PIPES, type ModelPipe, type PipeModel } from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

/** Reads the settings of one of the sequence's pipes: they must be the latest value of each setting it was sent. */
class ReadPipeSettings implements SequenceCommand<PipeModel> {
  constructor(readonly target: number) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length > 0 && model.room(1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    await readPipeSettings(model, model.pipes[this.target % model.pipes.length]!, real);
  }

  toString(): string {
    return `readPipeSettings(${this.target})`;
  }
}

/** Reads the settings of a pipe of the model: they must be the latest value of each setting it was sent. */
export async function readPipeSettings(model: PipeModel, pipe: ModelPipe, real: SequenceReal): Promise<Exchange> {
  const { id, settings } = pipe;
  // After an accepted update, the read is also the update's own check that it persisted.
  const applied = pipe.updated && Object.keys(settings).length > 0 ? { settings } : {};
  const probe = accept('settings of a pipe of a sequence', { expect: { pipeState: { id, settings }, ...applied } });
  const name = {
    command: `read the settings of pipe #${model.pipes.indexOf(pipe) + 1} (${pipe.kind})`,
    kind: 'read settings',
  };
  return real.step(name, 'getPipeSettings', {
    params: { pipeId: id },
    probe,
  });
}

/**
 * Commands that read the settings of any pipe the sequence created (by its place, so no more places than pipes: a
 * larger one would name the same pipe, and each would be one more shrink to try).
 */
export function readPipeSettingsCommand(): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.nat(MAX_SEQUENCE_PIPES - 1).map((target): SequenceCommand<PipeModel> => new ReadPipeSettings(target));
}
