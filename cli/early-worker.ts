import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunLink } from '../core/run-channel.ts';
import { type ThreadStart, vitestThreadStart, withFlagValues } from './vitest-thread.ts';

/**
 * vitest's worker thread, spawned as the command starts, before vitest loads (`suites/vitest-worker.ts`): it loads the
 * harness's bundle while the main thread resolves the settings and loads vitest and vite (about 0.25 s), is handed the
 * run's settings once they are settled (`push`: one message, the first its port carries), prepares and starts the run
 * from them (engine/command-run.ts: so the main thread loads neither the suites, fast-check nor undici), then loads
 * vitest's runtime, and vitest's pool (cli/harness-pool.ts) adopts it when vitest asks for a thread started exactly so.
 * Only a run of the build has one: the sources' worker side goes through vite's transform.
 */
export class EarlyWorker {
  /** The worker's file, which the pool also starts when it cannot adopt this one. */
  static readonly entry = fileURLToPath(new URL('../suites/vitest-worker.js', import.meta.url));
  private thread: Worker | undefined;
  private pushed = false;
  private onRefused: (why: string) => void = () => undefined;

  /**
   * Spawns the worker for a run of the build whose settings are not settled yet (`push` hands them over); undefined
   * for a run of the sources, or a build without the bundle. Until then it only loads the harness: a thread spawned for
   * a command that turns out not to run (a bad setting, a dry run) costs the other core its start, and ends with the
   * process or `dispose`.
   */
  static spawn(): EarlyWorker | undefined {
    const bundle = new URL('../suites/bundle.js', import.meta.url);
    if (!import.meta.url.endsWith('.js') || !existsSync(EarlyWorker.entry) || !existsSync(bundle)) return undefined;
    try {
      return new EarlyWorker(vitestThreadStart(), { preload: bundle.href });
    } catch {
      // Not lost: vitest's pool then starts the same file with its own settings, and reports what goes wrong.
      return undefined;
    }
  }

  /** Spawns the worker for a run whose settings are settled, and hands them over (`spawn`, then `push`). */
  static start(run: RunLink, onRefused: (why: string) => void): EarlyWorker | undefined {
    const early = EarlyWorker.spawn();
    return early?.push(run, onRefused) ? early : undefined;
  }

  private constructor(
    private readonly started: ThreadStart,
    workerData: { readonly preload: string },
  ) {
    this.thread = new Worker(EarlyWorker.entry, {
      env: { ...started.env },
      execArgv: withFlagValues(started.execArgv),
      stdout: true,
      stderr: true,
      workerData,
    });
    // Until it is adopted, nothing of its own may keep the process alive or end it: an error shows when vitest uses it.
    this.thread.unref();
    this.thread.on('error', () => undefined);
  }

  /**
   * Hands the worker the run's settings, settled, and its link back (once): it prepares the run as soon as it has them
   * and the harness. False when it cannot take them (ended, or given them already): the caller then starts another.
   * `onRefused` hears why vitest's pool could not adopt it (vitest asked for a thread started otherwise): the thread is
   * then ended, and the one vitest's pool starts prepares the run again (a configured target's preflight is sent
   * twice).
   */
  push(run: RunLink, onRefused: (why: string) => void): boolean {
    if (!this.thread || this.pushed) return false;
    this.pushed = true;
    this.onRefused = onRefused;
    this.thread.postMessage({ run });
    return true;
  }

  /**
   * The thread, when vitest's pool asks for one started as this one was (and only once); else undefined, and it ends.
   */
  take(wanted: ThreadStart): Worker | undefined {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return undefined;
    if (!this.pushed) {
      // Never: the command hands the settings over before vitest starts. Without them the thread would wait forever.
      void thread.terminate();
      return undefined;
    }
    const differences = startDifferences(this.started, wanted);
    if (differences.length === 0) {
      thread.ref();
      thread.removeAllListeners('error');
      return thread;
    }
    void thread.terminate();
    this.onRefused(
      'vitest wanted its worker thread started otherwise than the one the command started ' +
        `(${differences.join('; ')}), so it started another, about 0.1 s later. Is this a vitest release the ` +
        'harness does not know yet?',
    );
    return undefined;
  }

  /** Ends the thread if no pool adopted it (a run given up before vitest started, or one that started its own). */
  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }
}

/**
 * How `wanted` differs from `started`: the environment variables by name only (their values may be credentials), the
 * flags whole.
 */
function startDifferences(started: ThreadStart, wanted: ThreadStart): string[] {
  const names = [...new Set([...Object.keys(started.env), ...Object.keys(wanted.env)])].filter(
    (name) => started.env[name] !== wanted.env[name],
  );
  const flags =
    wanted.execArgv.length !== started.execArgv.length ||
    wanted.execArgv.some((flag, i) => flag !== started.execArgv[i]);
  return [
    ...(names.length > 0 ? [`environment variables ${names.sort().join(', ')}`] : []),
    ...(flags ? [`Node flags ${JSON.stringify(wanted.execArgv)}, not ${JSON.stringify(started.execArgv)}`] : []),
  ];
}

/**
 * Whether `argv` asks the command for a run that sends requests, as `main` dispatches it (no subcommand, or `run`;
 * neither help, the version nor a dry run): the command then spawns the run's worker before anything else. A wrong
 * guess either way costs only time: a thread that is not needed, or one spawned later.
 */
export function asksForRun(argv: readonly string[]): boolean {
  const [first] = argv;
  if (first !== undefined && first !== 'run' && !first.startsWith('-')) return false;
  return !argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '--dry-run');
}
