import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunLink } from '../run/run-channel.ts';

/** How long a run thread that ended is given for its last events to be heard before the run counts as failed. */
const LAST_EVENTS_MS = 1_000;

/**
 * The command's run thread (`cli/run-worker.ts`), spawned as the command starts: it loads the harness's bundle on the
 * other core while the main thread resolves the settings, is handed the run's settings once they are settled (`push`:
 * one message, the first its port carries), and prepares, sends and judges the run (engine/command-run.ts), so that the
 * main thread loads neither the suites, fast-check nor undici. Only a run of the build has one: a run of the sources
 * runs the engine in its own thread (`cli/run.ts`).
 */
export class EarlyWorker {
  /** The worker's file. */
  static readonly entry = fileURLToPath(new URL('./run-worker.js', import.meta.url));
  private thread: Worker | undefined;
  private pushed = false;
  private fail: (error: Error) => void = () => undefined;
  private grace: NodeJS.Timeout | undefined;
  /**
   * Rejects when the thread fails (an error no event told of, or an end before the run finished), never resolves: a
   * command waiting for the run's events races it.
   */
  readonly failed: Promise<never>;

  /**
   * Spawns the worker for a run of the build whose settings are not settled yet (`push` hands them over); undefined
   * for a run of the sources, or a build without the bundle. Until then it only loads the harness: a thread spawned for
   * a command that turns out not to run (a bad setting, a dry run) costs the other core its start, and ends with the
   * process or `dispose`.
   */
  static spawn(): EarlyWorker | undefined {
    const bundle = new URL('../suites/bundle.js', import.meta.url);
    if (!import.meta.url.endsWith('.js') || !existsSync(EarlyWorker.entry) || !existsSync(bundle)) return undefined;
    return new EarlyWorker(bundle.href);
  }

  /** Spawns the worker for a run whose settings are settled, and hands them over (`spawn`, then `push`). */
  static start(run: RunLink): EarlyWorker | undefined {
    const early = EarlyWorker.spawn();
    return early?.push(run) ? early : undefined;
  }

  private constructor(preload: string) {
    this.failed = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    // Read where the run's events are awaited; a thread never pushed a run fails nobody.
    this.failed.catch(() => undefined);
    const thread = new Worker(EarlyWorker.entry, { workerData: { preload } });
    this.thread = thread;
    // Until it is handed a run, nothing of its own may keep the process alive.
    thread.unref();
    thread.on('error', (error) => this.fail(error));
    // It ends only when ended (`dispose`), or when it fails: the events it sent before are heard within the grace.
    thread.on('exit', (code) => {
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.grace = setTimeout(
        () => this.fail(new Error(`the run's thread ended (exit code ${code}) before the run was judged`)),
        LAST_EVENTS_MS,
      );
    });
  }

  /**
   * Hands the worker the run's settings, settled, and its link back (once): it prepares the run as soon as it has them
   * and the harness. False when it cannot take them (ended, or given them already): the caller then starts another.
   */
  push(run: RunLink): boolean {
    if (!this.thread || this.pushed) return false;
    this.pushed = true;
    this.thread.ref();
    this.thread.postMessage({ run });
    return true;
  }

  /** Ends the thread (its run finished, or given up). */
  async dispose(): Promise<void> {
    clearTimeout(this.grace);
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }
}

/**
 * Whether `argv` asks the command for a run that sends requests, as `main` dispatches it (no subcommand, or `run`;
 * neither help, the version nor a dry run): the command then spawns the run's thread before anything else. A wrong
 * guess either way costs only time: a thread that is not needed, or one spawned later.
 */
export function asksForRun(argv: readonly string[]): boolean {
  const [first] = argv;
  if (first !== undefined && first !== 'run' && !first.startsWith('-')) return false;
  return !argv.some((arg) => arg === '--help' || arg === '-h' || arg === '--version' || arg === '--dry-run');
}
