import fc from 'fast-check';
import { payload } from '../../rules/body.ts';
import { writesAtOnce } from '../../rules/concurrent.ts';
import { accept } from '../../engine/probe.ts';
import { MAX_SEQUENCE_PIPES, type PipeModel } from './sequence-pipe-model.ts';
import type { SequenceCommand, SequenceReal } from '../../engine/sequence-run.ts';

type Settings = Readonly<Record<string, unknown>>;

/** Settings keys that PATCHes sent at once set: integers that take every value from 1 to `VALUES`. */
const KEYS = Object.freeze([
  'streaming_max_insert_wait_ms',
  'object_storage_concurrency',
  'object_storage_max_file_count',
  'engine_max_threads',
  'engine_max_insert_threads',
  'engine_max_download_threads',
]);
const VALUES = 64;

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
  constructor(readonly drawn: Drawn) {}

  check(model: Readonly<PipeModel>): boolean {
    return model.pipes.length > 0 && model.room(this.drawn.writes.length + 1);
  }

  async run(model: PipeModel, real: SequenceReal): Promise<void> {
    const index = this.drawn.target % model.pipes.length;
    const pipe = model.pipes[index]!;
    const bodies = settingsAtOnce(this.drawn, pipe.settings);
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
        request: { params, json, probe: accept('a PATCH of settings sent at once with others to one pipe') },
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
    const shared = this.drawn.shared === null ? '' : `, sharing ${KEYS[this.drawn.shared]}`;
    return `patchPipeAtOnce(${this.drawn.target}: ${this.drawn.writes.length} PATCHes${shared})`;
  }
}

/**
 * The bodies of PATCHes sent at once: each a key of its own from the keys not in common, and the key in common if
 * drawn; every value differs from `known`'s, and the values of the key in common from each other.
 */
export function settingsAtOnce(drawn: Drawn, known: Settings): { settings: Record<string, number> }[] {
  const shared = drawn.shared === null ? undefined : KEYS[drawn.shared]!;
  const own = KEYS.filter((key) => key !== shared);
  const taken: unknown[] = [known[shared ?? '']];
  return drawn.writes.map((seed, i) => {
    const key = own[(drawn.offset + i) % own.length]!;
    const settings: Record<string, number> = { [key]: valueAvoiding(seed, [known[key]]) };
    if (shared) {
      settings[shared] = valueAvoiding(seed, taken);
      taken.push(settings[shared]);
    }
    return { settings };
  });
}

/** The first value from `seed` on (1 to `VALUES`, round) that is none of `avoid`. */
function valueAvoiding(seed: number, avoid: readonly unknown[]): number {
  for (let step = 0; ; step++) {
    const value = ((seed + step) % VALUES) + 1;
    if (!avoid.includes(value)) return value;
  }
}

/** Commands that send 2 to 4 PATCHes of one of the sequence's pipes at once; shrinking tries fewer PATCHes first. */
export function patchPipeAtOnceCommand(): fc.Arbitrary<SequenceCommand<PipeModel>> {
  return fc
    .record({
      writes: fc.array(fc.nat(VALUES - 1), { minLength: 2, maxLength: MAX_PIPE_WRITES_AT_ONCE }),
      target: fc.nat(MAX_SEQUENCE_PIPES - 1),
      shared: fc.option(fc.nat(KEYS.length - 1)),
      offset: fc.nat(KEYS.length - 1),
    })
    .map((drawn): SequenceCommand<PipeModel> => new PatchPipeAtOnce(drawn));
}
