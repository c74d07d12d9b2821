import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolRunnerInitializer, PoolWorker, WorkerRequest } from 'vitest/node';
import { EarlyWorker } from './early-worker.ts';
import { withFlagValues } from './vitest-thread.ts';

const NAME = 'conformance-thread';

/**
 * vitest's pool for a run of the build: one thread like vitest's own `threads` pool, which is the worker the command
 * spawned as it started (cli/early-worker.ts) when vitest asks for a thread started the same way, else a new one.
 */
export function harnessPool(early: EarlyWorker): PoolRunnerInitializer {
  return { name: NAME, createPoolWorker: (options) => new HarnessThread(options, early) };
}

class HarnessThread implements PoolWorker {
  readonly name = NAME;
  private thread: Worker | undefined;

  constructor(
    private readonly options: PoolOptions,
    private readonly early: EarlyWorker,
  ) {}

  on(event: string, callback: (arg: unknown) => void): void {
    this.running().on(event, callback);
  }

  off(event: string, callback: (arg: unknown) => void): void {
    this.running().off(event, callback);
  }

  send(message: WorkerRequest): void {
    this.running().postMessage(message);
  }

  async start(): Promise<void> {
    if (this.thread) return;
    const { env, execArgv, project } = this.options;
    const thread =
      this.early.take({ env, execArgv }) ??
      new Worker(EarlyWorker.entry, { env, execArgv: withFlagValues(execArgv), stdout: true, stderr: true });
    this.thread = thread;
    thread.stdout.pipe(project.vitest.logger.outputStream);
    thread.stderr.pipe(project.vitest.logger.errorStream);
  }

  async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    await thread.terminate();
    thread.stdout.unpipe();
    thread.stderr.unpipe();
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private running(): Worker {
    if (!this.thread)
      throw new Error(
        'the harness worker thread is not running (vitest used it before starting it, or after stopping it)',
      );
    return this.thread;
  }
}
