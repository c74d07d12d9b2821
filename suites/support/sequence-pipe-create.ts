import fc from 'fast-check';
import { isSuccess } from '../../core/exchange.ts';
import { PIPE_KINDS, pipeCreateBody, type PipeCreateBody, type PipeKind } from '../../generators/index.ts';
import { accept } from '../../engine/probe.ts';
import { createdPipe, MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-run.ts';
import { choiceOf, type OpenFieldValues } from './open-values.ts';

/** Creates a pipe of one kind: its answer must be a pipe of its own. */
class CreatePipe implements SequenceCommand<PipeModel> {
  constructor(
    readonly kind: PipeKind,
    readonly drawn: PipeCreateBody,
    readonly open: OpenFieldValues,
  ) {}

  /** The body sent: as drawn, its open fields given values the target answered or accepted in this run. */
  get body(): PipeCreateBody {
    return this.open.values.fill(this.open.create, this.drawn, choiceOf(this.drawn)) ?? this.drawn;
  }

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length < MAX_SEQUENCE_PIPES && model.room(1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const expect = { pipeState: { others: model.pipes.map((pipe) => pipe.id) } };
    const name = { command: `create pipe #${model.pipes.length + 1} (${this.kind})`, kind: 'create' };
    const body = this.body;
    const exchange = await real.step(name, 'createPipe', {
      json: body,
      probe: accept(`a ${this.kind} pipe of a sequence`, { expect }),
    });
    const id = (exchange.response?.json as { result?: { id?: unknown } } | undefined)?.result?.id;
    if (isSuccess(exchange) && typeof id === 'string') model.pipes.push(createdPipe(this.kind, body, id));
  }

  toString(): string {
    return `createPipe(${this.kind})`;
  }
}

/**
 * Commands that create a pipe of any source kind, relational most (its table mappings have the most state), with a
 * complete body.
 */
export function createPipeCommand(open: OpenFieldValues): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.oneof(
    ...PIPE_KINDS.map((kind) => ({
      weight: kind === 'relational' ? 3 : 1,
      arbitrary: fc
        .noShrink(pipeCreateBody({ kind }))
        .map((body): SequenceCommand<PipeModel> => new CreatePipe(kind, body, open)),
    })),
  );
}
