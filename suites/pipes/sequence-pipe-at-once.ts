import fc from 'fast-check';
import { payload } from '../../rules/body.ts';
import { writesAtOnce } from '../../rules/concurrent.ts';
import { accept, observe } from '../../engine/probe.ts';
import { jsonText } from '../../core/json-text.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import type { OpenFieldValues, OpenValues } from './open-values.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-types.ts';

type Settings = Readonly<Record<string, unknown>>;

/** PATCHes of one pipe sent at once at most (every order of them is tried: 4! = 24). */
export const MAX_PIPE_WRITES_AT_ONCE = 4;

/** What a step of PATCHes sent at once draws: the pipe, each PATCH's value seed, the key they share if any. */
interface Drawn {
  readonly target: number;
  readonly writes: readonly number[];
  readonly shared: number | null;
  readonly offset: number;
}

/**
 * Sends 2 to 4 PATCHes of one pipe at once, each setting a settings key of its own (and sometimes one key they all
 * set), each value differing from the one the model knows and, for the key in common, from each other's; then reads
 * the pipe's settings. The write answered last carries them all, judged by `pipes.concurrent-updates`; the model then
 * takes the values the read shows of the keys sent.
 */
class PatchPipeAtOnce implements SequenceCommand<PipeModel> {
  constructor(
    readonly drawn: Drawn,
    readonly values: OpenValues,
  ) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length > 0 && model.room(this.drawn.writes.length + 1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const index = this.drawn.target % model.pipes.length;
    const pipe = model.pipes[index]!;
    const bodies = settingsAtOnce(this.drawn, pipe.settings, this.values);
    // Too few settings values learned to change: the step sends nothing.
    if (bodies.length < 2) return;
    const params = { pipeId: pipe.id };
    const { read } = await real.atOnce({
      name: {
        command: `update pipe #${index + 1} (${pipe.kind}) ${bodies.length} times at once: ${bodies
          .map((body) => Object.keys(body.settings).join(' and '))
          .join('; ')}`,
        kind: 'updates at once',
      },
      writes: bodies.map((json) => ({
        operationId: 'updatePipe',
        // A part of a body is what the documents neither require nor forbid: a rejection is no finding.
        request: { params, json, probe: observe('a PATCH of settings sent at once with others to one pipe') },
      })),
      read: {
        name: { command: `read the settings of pipe #${index + 1} (${pipe.kind})`, kind: 'read settings' },
        operationId: 'getPipeSettings',
        request: { params, probe: accept('the settings of a pipe after PATCHes sent at once') },
      },
      judge: (writes, after) => writesAtOnce({ initial: pipe.settings }, writes, after),
    });
    const shown = payload(read) ?? {};
    const sent = new Set(bodies.flatMap((body) => Object.keys(body.settings)));
    const settings = { ...pipe.settings, ...Object.fromEntries([...sent].map((key) => [key, shown[key]])) };
    model.pipes[index] = { ...pipe, settings, updated: true };
  }

  toString(): string {
    const shared = this.drawn.shared === null ? '' : ', one key in common';
    return `patchPipeAtOnce(${this.drawn.target}: ${this.drawn.writes.length} PATCHes${shared})`;
  }
}

/**
 * The bodies of PATCHes sent at once, settings only, with values the target answered or accepted in this run (`values`,
 * as every must-accept probe sends in open fields): each a key of its own (those with a value other than `known`'s
 * first, which it then sets) and, when drawn and known with enough values, the key they share, its values differing
 * from `known`'s and from each other. As many PATCHes as drawn when enough keys are known, fewer else; none when fewer
 * than two.
 */
export function settingsAtOnce(
  drawn: Drawn,
  known: Settings,
  values: OpenValues,
): { settings: Record<string, unknown> }[] {
  // Keys with a value to change to first; a key the target gave one value only keeps it (still a write to order).
  const changes = values
    .entries('settings')
    .map(([key, list]) => {
      const other = list.filter((value) => jsonText(value) !== jsonText(known[key]));
      return { key, list: other.length > 0 ? other : list, changes: other.length > 0 };
    })
    .sort((a, b) => Number(b.changes) - Number(a.changes));
  const count = Math.min(drawn.writes.length, changes.length);
  const common = changes.filter((change) => change.changes && change.list.length >= count);
  const shared = drawn.shared === null || common.length === 0 ? undefined : common[drawn.shared % common.length]!;
  const own = changes.filter((change) => change !== shared);
  const writes = Math.min(count, own.length);
  if (writes < 2) return [];
  // The keys drawn among: those that change, or as many more as the PATCHes need.
  const pool = own.slice(0, Math.max(writes, own.filter((change) => change.changes).length));
  return drawn.writes.slice(0, writes).map((seed, i) => {
    const { key, list } = pool[(drawn.offset + i) % pool.length]!;
    const settings: Record<string, unknown> = { [key]: list[seed % list.length] };
    if (shared) settings[shared.key] = shared.list[(drawn.offset + i) % shared.list.length];
    return { settings };
  });
}

/** Commands that send 2 to 4 PATCHes of one of the sequence's pipes at once; shrinking tries fewer PATCHes first. */
export function patchPipeAtOnceCommand(open: OpenFieldValues): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc
    .record({
      // Values as drawn: every candidate is a whole sequence sent, so shrinking tries fewer PATCHes, not other values.
      writes: fc.array(fc.noShrink(fc.nat()), { minLength: 2, maxLength: MAX_PIPE_WRITES_AT_ONCE }),
      target: fc.nat(MAX_SEQUENCE_PIPES - 1),
      shared: fc.noShrink(fc.option(fc.nat())),
      offset: fc.noShrink(fc.nat()),
    })
    .map((drawn): SequenceCommand<PipeModel> => new PatchPipeAtOnce(drawn, open.values));
}
