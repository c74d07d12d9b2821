import fc from 'fast-check';
import { isRefusal, isSuccess } from '../../transport/exchange.ts';
import { payload } from '../../rules/body.ts';
import { accept, reject } from '../../engine/probe.ts';
import { REFUSED_WRITE_PARTS } from '../../rules/writes.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import { readPipeSettings } from './sequence-pipe-settings.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';
import { commandsWithin } from '../../engine/sequence-run.ts';

/**
 * Reads the settings of one of the sequence's pipes (as the model holds them), then updates it with a body built to be
 * refused: each of its numeric settings changed, the first setting a string. A refusal is followed by a read that must
 * show the settings as the read before it did (writes.refused-unchanged, its part in sequences); an acceptance (a
 * finding of its own) leaves the pipe unknown, so the model drops it.
 */
class RefusedPipeUpdate implements SequenceCommand<PipeModel> {
  constructor(readonly target: number) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length > 0 && model.room(3, 1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const pipe = model.pipes[this.target % model.pipes.length]!;
    const before = await readPipeSettings(model, pipe, real);
    const known = isSuccess(before) ? payload(before) : undefined;
    const [key = 'engine_max_threads', ...rest] = Object.keys(pipe.settings);
    const changed = rest.map((name) => {
      const value = pipe.settings[name];
      return [name, Number.isSafeInteger(value) ? (value as number) + 1 : value];
    });
    const json = { settings: { ...Object.fromEntries(changed), [key]: 'not a number' } };
    const name = {
      command: `update pipe #${model.pipes.indexOf(pipe) + 1} (${pipe.kind}): settings, ${key} a string`,
      kind: 'refused update',
    };
    const exchange = await real.step(name, 'updatePipe', {
      params: { pipeId: pipe.id },
      json,
      probe: reject(`an update of a pipe of a sequence whose ${key} is a string`),
    });
    if (isRefusal(exchange) && known && typeof known === 'object') {
      const probe = accept('settings of a pipe of a sequence after a refused update', {
        rules: ['writes.refused-unchanged'],
        part: REFUSED_WRITE_PARTS.sequences,
        expect: { refusedUnchanged: { settings: known } },
      });
      const after = `read the settings of pipe #${model.pipes.indexOf(pipe) + 1} (${pipe.kind}) after the refusal`;
      await real.step({ command: after, kind: 'read settings after a refusal' }, 'getPipeSettings', {
        params: { pipeId: pipe.id },
        probe,
      });
    } else if (isSuccess(exchange)) model.pipes.splice(model.pipes.indexOf(pipe), 1);
  }

  toString(): string {
    return `refusedUpdatePipe(${this.target})`;
  }
}

/** The requests a command sends (fc.commands wraps each command: its words tell what it is). */
function requestsOf(command: SequenceCommand<PipeModel>): number {
  const words = String(command);
  const writes = /^patchPipeAtOnce\(\d+: (\d+) PATCHes/.exec(words)?.[1];
  if (writes !== undefined) return Number(writes) + 1;
  return words.startsWith('refusedUpdatePipe(') ? 3 : 1;
}

/**
 * Whether the commands that fit within `requests` (a command runs only where the ones before it leave it room) send
 * PATCHes at once and an update built to be refused: each judges a rule the other commands do not.
 */
export function sendsAtOnceAndRefused(commands: Iterable<SequenceCommand<PipeModel>>, requests: number): boolean {
  const within = commandsWithin(commands, requests, requestsOf).map(String);
  return ['patchPipeAtOnce(', 'refusedUpdatePipe('].every((kind) => within.some((words) => words.startsWith(kind)));
}

/** Commands that send a pipe of the sequence an update built to be refused. */
export function refusedPipeUpdateCommand(): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.nat(MAX_SEQUENCE_PIPES - 1).map((target): SequenceCommand<PipeModel> => new RefusedPipeUpdate(target));
}
