import fc from 'fast-check';
import { isRefusal, isSuccess } from '../../transport/exchange.ts';
import {
  PIPE_KINDS,
  pipeUpdatePatch,
  type PipeKind,
  type PipeUpdateBody,
  type PipeUpdatePatch,
} from '../../generators/index.ts';
import { accept, observe } from '../../engine/probe.ts';
import {
  fittedToPipe,
  MAX_SEQUENCE_PIPES,
  patchBody,
  pipeState,
  updatedPipe,
  type PipeModel,
} from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal, StepName } from '../../engine/sequence-types.ts';
import { choiceOf, type OpenFieldValues } from './open-values.ts';
import { readPipeSettings } from './sequence-pipe-settings.ts';

/**
 * Updates one of the sequence's pipes: its answer must show the pipe as every write so far left it; a refusal is
 * followed by a read of its settings, which must show them as the model holds them. The patch was drawn for a source
 * kind: sent to a pipe of another kind, it goes without its source, as a part of a body.
 */
class UpdatePipe implements SequenceCommand<PipeModel> {
  constructor(
    readonly kind: PipeKind,
    readonly target: number,
    readonly patch: PipeUpdatePatch,
    readonly open: OpenFieldValues,
  ) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length > 0 && model.room(1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const pipe = pipeOfKind(model, this.target, this.kind);
    const patched = patchBody(pipe, pipe.kind === this.kind ? this.patch : withoutSource(this.patch));
    // A complete body keeps the columns the pipe's tableDefinition names; a part of one goes as drawn (observed).
    const drawn = patched.complete ? { ...patched, body: fittedToPipe(pipe, patched.body) } : patched;
    // A must-accept update changes the open fields only to values the target accepted (for another pipe); with one the
    // target gave none of, the body goes as drawn, as an observe probe.
    const filled = drawn.complete
      ? this.open.values.fill(this.open.update, drawn.body, choiceOf(drawn.body), { settings: pipe.settings })
      : undefined;
    const complete = filled !== undefined;
    const body = filled ?? drawn.body;
    const after = updatedPipe(pipe, body);
    const expect = { pipeState: pipeState(after) };
    // A part of a body is what the documents neither require nor forbid: a rejection is no finding.
    const probe = complete
      ? accept(`a complete update of a ${this.kind} pipe of a sequence`, { expect })
      : observe(`an update of some fields of a ${this.kind} pipe of a sequence`, { expect });
    const exchange = await real.step(stepName(model.pipes.indexOf(pipe), pipe.kind, body), 'updatePipe', {
      params: { pipeId: pipe.id },
      json: body,
      probe,
    });
    if (isSuccess(exchange)) model.pipes[model.pipes.indexOf(pipe)] = after;
    else if (isRefusal(exchange) && model.room(1)) await readPipeSettings(model, pipe, real);
  }

  toString(): string {
    const fields = this.patch.complete ? ['every field'] : Object.keys(this.patch.body);
    const mappings = [
      ...(this.patch.remove.length > 0 ? ['remove known'] : []),
      ...(this.patch.readd === undefined ? [] : ['add known again']),
    ];
    return `updatePipe(${this.kind} ${this.target}: ${[...fields, ...mappings].join(', ')})`;
  }
}

/**
 * The pipe an update drawn for `kind` goes to: the sequence's pipe `target` points at, or the first after it (round the
 * sequence's pipes) of that kind, so that a complete body goes whole wherever the sequence has a pipe it fits (sent to
 * a pipe of another kind it goes without its source, a part of a body, which a target may refuse).
 */
function pipeOfKind(model: Readonly<PipeModel>, target: number, kind: PipeKind): PipeModel['pipes'][number] {
  const count = model.pipes.length;
  for (let step = 0; step < count; step++) {
    const pipe = model.pipes[(target + step) % count]!;
    if (pipe.kind === kind) return pipe;
  }
  return model.pipes[target % count]!;
}

/**
 * The step as the report names it (the pipe, by its place among the sequence's, and what the body sent) and as the
 * coverage counts it (an update, or one that adds or removes table mappings).
 */
function stepName(index: number, kind: PipeKind, body: PipeUpdateBody): StepName {
  const relational = (
    body.source as { relational?: { tableMappingsToAdd?: unknown[]; tableMappingsToRemove?: unknown[] } } | undefined
  )?.relational;
  const added = relational?.tableMappingsToAdd?.length ?? 0;
  const removed = relational?.tableMappingsToRemove?.length ?? 0;
  const mappings = [
    ...(relational?.tableMappingsToAdd ? [`${added} table mapping(s) added`] : []),
    ...(relational?.tableMappingsToRemove ? [`${removed} removed`] : []),
  ];
  const delta = [...(added > 0 ? ['add'] : []), ...(removed > 0 ? ['remove'] : [])];
  return {
    command: `update pipe #${index + 1} (${kind}): ${[...Object.keys(body), ...mappings].join(', ')}`,
    kind: delta.length > 0 ? `${delta.join(' and ')} table mappings` : 'update',
  };
}

/** A patch as sent to a pipe of another source kind: without its source, so a part of a body. */
function withoutSource(patch: PipeUpdatePatch): PipeUpdatePatch {
  const { source: _source, ...body } = patch.body;
  return { ...patch, complete: false, body };
}

/**
 * Commands that update a pipe of the sequence: complete bodies or parts of one, relational ones (table mappings added
 * and removed) most.
 */
export function updatePipeCommand(open: OpenFieldValues): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc.oneof(
    ...PIPE_KINDS.map((kind) => ({
      weight: kind === 'relational' ? 3 : 1,
      arbitrary: fc
        .tuple(fc.nat(MAX_SEQUENCE_PIPES - 1), fc.noShrink(pipeUpdatePatch({ kind })))
        .map(([target, patch]): SequenceCommand<PipeModel> => new UpdatePipe(kind, target, patch, open)),
    })),
  );
}
