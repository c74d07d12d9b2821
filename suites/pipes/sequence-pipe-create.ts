import fc from 'fast-check';
import { isSuccess } from '../../transport/exchange.ts';
import { PIPE_KINDS, pipeCreateBody, type PipeCreateBody, type PipeKind } from '../../generators/index.ts';
import { accept, observe } from '../../engine/probe.ts';
import { createdPipe, MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';
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
    return this.filled ?? this.drawn;
  }

  /** The drawn body with learned values in its open fields; undefined when the target gave none of one of them. */
  private get filled(): PipeCreateBody | undefined {
    return this.open.values.fill(this.open.create, this.drawn, choiceOf(this.drawn));
  }

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length < MAX_SEQUENCE_PIPES && model.room(1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const expect = { pipeState: { others: model.pipes.map((pipe) => pipe.id) } };
    const name = { command: `create pipe #${model.pipes.length + 1} (${this.kind})`, kind: 'create' };
    const body = this.body;
    // Drawn values in an open field (none learned) make it an observe probe: a rejection is no finding.
    const probe = this.filled
      ? accept(`a ${this.kind} pipe of a sequence`, { expect })
      : observe(`a ${this.kind} pipe of a sequence, with open values as drawn`, { expect });
    const exchange = await real.step(name, 'createPipe', { json: body, probe });
    const result = (exchange.response?.json as { result?: { id?: unknown; createdAt?: unknown } } | undefined)?.result;
    if (isSuccess(exchange) && typeof result?.id === 'string')
      model.pipes.push(createdPipe(this.kind, body, result.id, result.createdAt));
  }

  toString(): string {
    return `createPipe(${this.kind})`;
  }
}

/**
 * Commands that create a pipe of one of `kinds` (those whose open fields the target gave values of), relational most
 * (its table mappings have the most state), with a complete body.
 */
export function createPipeCommand(
  open: OpenFieldValues,
  kinds: readonly PipeKind[] = PIPE_KINDS,
): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.oneof(
    ...kinds.map((kind) => ({
      weight: kind === 'relational' ? 3 : 1,
      arbitrary: fc
        .noShrink(pipeCreateBody({ kind }))
        .map((body): SequenceCommand<PipeModel> => new CreatePipe(kind, body, open)),
    })),
  );
}
