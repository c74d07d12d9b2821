import { setFlagsFromString } from 'node:v8';
import { DEFAULTS } from '../settings/defaults.ts';

/**
 * V8's heap settings for the command's process. The worker that sends and judges allocates about 100 kB per request,
 * nearly all of it garbage within the request, but some outlives two young collections (each request's timeout signal,
 * bodies drawn ahead, requests waiting at the gate) and is moved to the old generation, which V8 let grow to up to four
 * times what was live before collecting it: peak memory grew with `--runs` (about 195 MiB at `--runs 64`, 240 MiB at
 * 512) while what was live hardly did. Here the old generation is collected once it has grown by a fifth of what was
 * live (or by V8's minimum step), and the worker's young generation is 8 MiB rather than 32: at --runs 64 / 512 / 2048,
 * peak RSS 162 / 172 / 192 MiB against 169 / 180 / 206 with a half and 16 MiB, for no CPU per request the bench could
 * tell.
 */
export const HEAP_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=4', '--heap-growing-percent=20']);

/**
 * Applies HEAP_FLAGS to this process for a run of `runs` examples per property, when it is longer than the default: the
 * growth cap at once, the young generation's size to threads started from now on (the run's thread). A default run ends
 * before the old generation's growth matters, and the smaller young generation would cost it about 4% of its time.
 * For the `conformance` command only: a library never changes its host's heap. True when it applied them.
 */
export function limitHeapGrowth(runs: number): boolean {
  if (runs <= DEFAULTS.runs) return false;
  for (const flag of HEAP_FLAGS) setFlagsFromString(flag);
  return true;
}
