import fc from 'fast-check';
import { isSuccess } from '../../core/exchange.ts';
import { PIPE_KINDS, pipeUpdatePatch, type PipeKind, type PipeUpdatePatch } from '../../generators/index.ts';
import { accept, observe } from './probe.ts';
import { patchBody, pipeState, updatedPipe, type PipeModel } from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal } from './sequence-run.ts';

/** Updates one of the sequence's pipes of a kind: its answer must show the pipe as every write so far left it. */
class UpdatePipe implements SequenceCommand<PipeModel> {
  constructor(
    readonly kind: PipeKind,
    readonly target: number,
    readonly patch: PipeUpdatePatch,
  ) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.some((pipe) => pipe.kind === this.kind);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const candidates = model.pipes.filter((pipe) => pipe.kind === this.kind);
    const pipe = candidates[this.target % candidates.length]!;
    const { body, complete } = patchBody(pipe, this.patch);
    const after = updatedPipe(pipe, body);
    const expect = { pipeState: pipeState(after) };
    // A part of a body is what the documents neither require nor forbid: a rejection is no finding.
    const probe = complete ? accept(`a complete update of a ${this.kind} pipe of a sequence`, { expect }) : observe(`an update of some fields of a ${this.kind} pipe of a sequence`, { expect });
    const exchange = await real.step(this.toString(), 'updatePipe', { params: { pipeId: pipe.id }, json: body, probe });
    if (isSuccess(exchange)) model.pipes[model.pipes.indexOf(pipe)] = after;
  }

  toString(): string {
    const fields = this.patch.complete ? ['every field'] : Object.keys(this.patch.body);
    const mappings = [...(this.patch.remove.length > 0 ? ['remove known'] : []), ...(this.patch.readd === undefined ? [] : ['add known again'])];
    return `updatePipe(${this.kind} ${this.target}: ${[...fields, ...mappings].join(', ')})`;
  }
}

/** Commands that update a pipe of the sequence: complete bodies or parts of one, with table mappings added and removed. */
export function updatePipeCommand(): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.oneof(
    ...PIPE_KINDS.map((kind) =>
      fc.tuple(fc.nat(7), pipeUpdatePatch({ kind })).map(([target, patch]): SequenceCommand<PipeModel> => new UpdatePipe(kind, target, patch)),
    ),
  );
}
