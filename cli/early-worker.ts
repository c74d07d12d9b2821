import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { RunConfig } from '../core/config.ts';
import { HarnessError, type HarnessErrorCode } from '../core/errors.ts';
import type { Plan } from '../suites/support/plan.ts';
import type { PreflightReport } from './preflight.ts';

/** What a thread is started with: vitest gives its pool's threads the same, which is how the pool knows it may adopt one. */
export interface ThreadStart {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly execArgv: readonly string[];
}

/**
 * What the worker thread answers when sent the run's settings (`suites/vitest-worker.ts`): the plan, and for a configured
 * target the preflight's report or the error that stops the run; or why it could not plan.
 */
export type PrepareAnswer = { readonly error: string } | { readonly plan: Plan; readonly preflight?: PreflightAnswer };
export type PreflightAnswer = { readonly report: PreflightReport } | { readonly failed: { readonly message: string; readonly code?: HarnessErrorCode } };

/** The run prepared in the worker thread: its plan, and for a configured target the preflight (which throws what stops the run). */
export interface PreparedThere {
  readonly plan: Plan;
  readonly preflight?: () => PreflightReport;
}

/**
 * vitest's worker thread, spawned as a run starts, before vitest loads (`suites/vitest-worker.ts`): it loads vitest's
 * runtime and the harness's bundle while the main thread loads vitest and vite (about 0.25 s of each thread), plans
 * the run there and runs the preflight (so the main thread loads neither the suites, fast-check nor undici), and vitest's
 * pool (cli/harness-pool.ts) adopts it when vitest asks for a thread started exactly so.
 * Only a run of the build has one: the sources' worker side goes through vite's transform.
 */
export class EarlyWorker {
  /** The worker's file, which the pool also starts when it cannot adopt this one. */
  static readonly entry = fileURLToPath(new URL('../suites/vitest-worker.js', import.meta.url));
  private thread: Worker | undefined;
  /** Where the run's settings are sent and the plan and preflight answered; the thread's end answers with an error. */
  private readonly plans: MessagePort;
  private ended: Error | undefined;
  /** Settled once the worker has answered what it was asked, or ended: a refused thread is ended only then. */
  private answered: Promise<unknown> = Promise.resolve();
  /** Rejects the preparation asked for and not yet answered. */
  private unanswered: ((error: Error) => void) | undefined;

  /**
   * Spawns the worker for a run of the build; undefined for a run of the sources, or a build without the bundle.
   * `onRefused` hears why vitest's pool could not adopt it (vitest asked for a thread started otherwise).
   */
  static start(onRefused: (why: string) => void): EarlyWorker | undefined {
    const bundle = new URL('../suites/bundle.js', import.meta.url);
    if (!import.meta.url.endsWith('.js') || !existsSync(EarlyWorker.entry) || !existsSync(bundle)) return undefined;
    try {
      return new EarlyWorker(vitestThreadStart(), bundle.href, onRefused);
    } catch {
      // Not lost: vitest's pool then starts the same file with its own settings, and reports what goes wrong.
      return undefined;
    }
  }

  private constructor(
    private readonly started: ThreadStart,
    preload: string,
    private readonly onRefused: (why: string) => void,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.plans = port1;
    this.plans.unref();
    this.thread = new Worker(EarlyWorker.entry, {
      env: { ...started.env },
      execArgv: [...started.execArgv],
      stdout: true,
      stderr: true,
      workerData: { preload, plans: port2 },
      transferList: [port2],
    });
    // Until it is adopted, nothing of its own may keep the process alive or end it: an error shows when vitest uses it.
    this.thread.unref();
    this.thread.on('error', () => undefined);
    this.thread.once('exit', (code) => {
      this.ended = new Error(`vitest's worker thread ended (exit code ${code}) before it prepared the run`);
      this.unanswered?.(this.ended);
    });
  }

  /**
   * The run's plan (cli/run-plan.ts) and, for a configured target, its preflight (cli/preflight.ts), both made in the
   * worker thread from the settings as resolved. When the plan cannot be had there (the thread failed or ended), the
   * promise rejects, and the command plans and runs the preflight on its own thread, where a bad setting is raised.
   */
  prepare(config: RunConfig): Promise<PreparedThere> {
    if (this.ended) return Promise.reject(this.ended);
    const prepared = new Promise<PreparedThere>((resolve, reject) => {
      this.unanswered = reject;
      this.plans.ref();
      this.plans.once('message', (answer: PrepareAnswer) => {
        if ('error' in answer) reject(new Error(answer.error));
        else resolve({ plan: answer.plan, ...(answer.preflight ? { preflight: preflightOf(answer.preflight) } : {}) });
      });
      this.plans.postMessage(config);
    }).finally(() => {
      this.unanswered = undefined;
      this.plans.unref();
    });
    this.answered = prepared.catch(() => undefined);
    return prepared;
  }

  /** The thread, when vitest's pool asks for one started as this one was (and only once); else undefined, and it ends. */
  take(wanted: ThreadStart): Worker | undefined {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return undefined;
    const differences = startDifferences(this.started, wanted);
    if (differences.length === 0) {
      thread.ref();
      thread.removeAllListeners('error');
      return thread;
    }
    // Not before it has answered: a preflight it began must not be sent again by the command.
    void this.answered.then(() => thread.terminate());
    this.onRefused(
      `vitest wanted its worker thread started otherwise than the one the command started (${differences.join('; ')}), so it started another, about 0.1 s later. Is this a vitest release the harness does not know yet?`,
    );
    return undefined;
  }

  /** Ends the thread if no pool adopted it (a run given up before vitest started, or one that started its own). */
  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    this.ended ??= new Error("vitest's worker thread was ended before it prepared the run");
    this.plans.close();
    await thread?.terminate();
  }
}

/** The preflight as the worker thread ran it: its report, or the error it stopped the run with, a HarnessError as one. */
function preflightOf(answer: PreflightAnswer): () => PreflightReport {
  return () => {
    if ('report' in answer) return answer.report;
    const { code, message } = answer.failed;
    throw code ? new HarnessError(code, message) : new Error(message);
  };
}

/**
 * The environment and Node flags vitest 4.1 gives its pool's threads in a run like the harness's (no config file, no
 * `env`, vite's defaults): the process's environment, with vite's `import.meta.env` for mode `test` where it has none
 * of its own (vitest copies them into it so), and vitest's variables; the profiling flags the process has, vitest's
 * own, and vite's SSR resolve conditions. Like vite, it reads production from `NODE_ENV` (which vitest sets to `test`
 * when it is unset).
 */
export function vitestThreadStart(): ThreadStart {
  const vitestRoot = dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
  const { env } = process;
  const production = env.NODE_ENV === 'production';
  return {
    env: {
      ...env,
      BASE_URL: env.BASE_URL ?? '/',
      MODE: env.MODE ?? 'test',
      DEV: env.DEV ?? (production ? '' : '1'),
      PROD: env.PROD ?? (production ? '1' : ''),
      TEST: 'true',
      VITEST: 'true',
      NODE_ENV: env.NODE_ENV || 'test',
      VITEST_MODE: 'RUN',
      FORCE_TTY: isatty(1) ? 'true' : '',
    },
    execArgv: [
      ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof') || arg.startsWith('--heap-prof') || arg.startsWith('--diagnostic-dir')),
      '--experimental-import-meta-resolve',
      '--require',
      join(vitestRoot, 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      production ? 'production' : 'development',
    ],
  };
}

/** How `wanted` differs from `started`: the environment variables by name only (their values may be credentials), the flags whole. */
function startDifferences(started: ThreadStart, wanted: ThreadStart): string[] {
  const names = [...new Set([...Object.keys(started.env), ...Object.keys(wanted.env)])].filter((name) => started.env[name] !== wanted.env[name]);
  const flags = wanted.execArgv.length !== started.execArgv.length || wanted.execArgv.some((flag, i) => flag !== started.execArgv[i]);
  return [
    ...(names.length > 0 ? [`environment variables ${names.sort().join(', ')}`] : []),
    ...(flags ? [`Node flags ${JSON.stringify(wanted.execArgv)}, not ${JSON.stringify(started.execArgv)}`] : []),
  ];
}
