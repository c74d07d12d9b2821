import { setTimeout as sleep } from 'node:timers/promises';
import { BroadcastChannel } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { HarnessError, type HarnessErrorCode, isHarnessError } from './errors.ts';
import type { CreatedResource } from './run-report.ts';
import type { PreparedRun, RunSettings } from './run.ts';

/** What the thread that sends requests has done so far. */
export interface RunProgress {
  /** Requests sent (429 retries included). */
  readonly sent: number;
  /** 429 answers waited out so far. */
  readonly rateLimited: number;
  /** Contract violations found so far. */
  readonly violations: number;
}

/** Why a run could not be prepared, as it crosses threads: a HarnessError keeps its code. */
interface Failure {
  readonly message: string;
  readonly code?: HarnessErrorCode;
}

type Message =
  | { readonly kind: 'ready'; readonly asker: string }
  | { readonly kind: 'settings'; readonly asker: string; readonly settings: RunSettings }
  | { readonly kind: 'prepared'; readonly run: PreparedRun }
  | { readonly kind: 'failed'; readonly failure: Failure }
  | { readonly kind: 'abandon' }
  | { readonly kind: 'hello' }
  | { readonly kind: 'state'; readonly stopped: boolean }
  | { readonly kind: 'stop' }
  | { readonly kind: 'progress'; readonly counters: SharedArrayBuffer }
  | { readonly kind: 'created'; readonly resources: readonly Announced[] };

/** A resource a suite left on the target, as the sending thread announces it. */
interface Announced {
  readonly suite: string;
  readonly resource: CreatedResource;
}

/** How long a sending thread waits for the main thread to say whether the run was interrupted before it opened. */
const HELLO_TIMEOUT_MS = 2_000;

/** The progress counters, in the order of their slots in the memory the two threads share. */
const PROGRESS_FIELDS = Object.freeze(['sent', 'rateLimited', 'violations'] as const);

/**
 * The channel between the main thread of a run (where signals arrive and the terminal is written) and the worker thread
 * that sends its requests: interrupts go one way, progress the other. BroadcastChannel reaches every thread of the
 * process; a channel is named after the run's seed and report directory, so that two runs do not hear each other.
 * Progress travels in memory both threads share, written after every exchange and read when the main thread needs it: a
 * message per exchange cost the sending thread a wake-up of the main thread each time (a tenth of its time).
 */
export interface RunChannel {
  /**
   * Main thread: sends the settings, once `settled` gives them, to the first sending thread that asks, and resolves
   * with the run that thread prepared (rejects with why it could not); a thread that asks later is told that run.
   * Settled to nothing (or rejected), it tells every thread that asks that the run will not start.
   */
  handOver(settled: Promise<RunSettings | undefined>): Promise<PreparedRun>;
  /**
   * Sending thread: the run, prepared here by `prepare` when this thread is the first to ask for the settings (and
   * then told to the main thread), else as the thread that was first prepared it; rejects when the run will not start.
   */
  preparedRun(prepare: (settings: RunSettings) => Promise<PreparedRun>): Promise<PreparedRun>;
  /** Main thread: answers a sending thread's `hello` with whether the run is stopped. */
  serve(stopped: () => boolean): void;
  /** Main thread: tells the sending thread to stop sending (restores excepted). */
  stop(): void;
  /** Main thread: how far the run is, as the sending thread last reported it (zeros before its first report). */
  progress(): RunProgress;
  /** Sending thread: asks whether the run was interrupted before it opened the channel. */
  hello(): Promise<boolean>;
  /** Sending thread: calls `handler` when the run is interrupted. */
  onStop(handler: () => void): void;
  /** Sending thread: tells the main thread how far the run is (one message, the first time; then shared memory). */
  report(progress: RunProgress): void;
  /**
   * Sending thread: tells the main thread what a suite left on the target, as it happens (so that a run stopped at once
   * still lists it): the resources announced in one turn of the event loop go in one message at its end.
   */
  created(suite: string, resource: CreatedResource): void;
  /** Main thread: calls `handler` with every resource a suite left on the target. */
  onCreated(handler: (suite: string, resource: CreatedResource) => void): void;
  close(): void;
}

/** A run's channel's name, after its seed and report directory: two runs of one process do not hear each other. */
export function runChannelName(config: { readonly seed: number; readonly reportDir: string }): string {
  return `conformance-run:${config.seed}:${config.reportDir}`;
}

/** Opens a run's channel (`runChannelName`); it never keeps a thread alive. */
export function openRunChannel(name: string): RunChannel {
  const channel = new BroadcastChannel(name);
  channel.unref();
  const handlers: { [K in Message['kind']]: Array<(message: Extract<Message, { kind: K }>) => void> } = {
    ready: [],
    settings: [],
    prepared: [],
    failed: [],
    abandon: [],
    hello: [],
    state: [],
    stop: [],
    progress: [],
    created: [],
  };
  channel.onmessage = (event) => {
    const message = (event as MessageEvent<Message>).data;
    for (const handler of handlers[message.kind] ?? []) (handler as (m: Message) => void)(message);
  };
  const post = (message: Message): void => channel.postMessage(message);
  /** This thread's counters once it reports; the sending thread's, on the main thread, once it has shared them. */
  let counters: Int32Array | undefined;
  /** The resources announced in this turn of the sending thread's event loop, not sent yet. */
  let announced: Announced[] = [];
  handlers.progress.push((message) => {
    counters = new Int32Array(message.counters);
  });
  return {
    handOver(settled) {
      // What a thread that asks is told once the run is settled: the run prepared, why not, or that it will not start.
      let answer: Message | undefined;
      let taken = false;
      const tell = (message: Message): void => {
        answer ??= message;
        post(answer);
      };
      let giveUp = (): void => undefined;
      const prepared = new Promise<PreparedRun>((resolve, reject) => {
        handlers.prepared.push((message) => {
          answer ??= message;
          resolve(message.run);
        });
        handlers.failed.push((message) => {
          answer ??= message;
          reject(errorOf(message.failure));
        });
        giveUp = () => reject(new Error('the run was given up before it was prepared'));
      });
      const abandon = (): void => {
        tell({ kind: 'abandon' });
        giveUp();
      };
      // Given up before any thread asked: a thread that asks later is told so at once.
      void settled.then((settings) => settings ?? abandon(), abandon);
      handlers.ready.push(({ asker }) => {
        if (answer) post(answer);
        else if (!taken) {
          taken = true;
          void settled.then(
            (settings) => settings && post({ kind: 'settings', asker, settings }),
            () => undefined,
          );
        }
      });
      return prepared;
    },
    preparedRun(prepare) {
      const asker = randomUUID();
      const answer = new Promise<PreparedRun>((resolve, reject) => {
        handlers.settings.push((message) => {
          if (message.asker !== asker) return;
          prepare(message.settings).then(
            (run) => {
              post({ kind: 'prepared', run });
              resolve(run);
            },
            (error: unknown) => {
              post({ kind: 'failed', failure: failureOf(error) });
              reject(error);
            },
          );
        });
        handlers.prepared.push(({ run }) => resolve(run));
        handlers.failed.push(({ failure }) => reject(errorOf(failure)));
        handlers.abandon.push(() =>
          reject(new Error('the command gave the run up before its first request (see its message)')),
        );
      });
      post({ kind: 'ready', asker });
      return answer;
    },
    serve: (stopped) => void handlers.hello.push(() => post({ kind: 'state', stopped: stopped() })),
    stop: () => post({ kind: 'stop' }),
    progress() {
      const read = (field: keyof RunProgress): number =>
        counters ? Atomics.load(counters, PROGRESS_FIELDS.indexOf(field)) : 0;
      return { sent: read('sent'), rateLimited: read('rateLimited'), violations: read('violations') };
    },
    async hello() {
      const answer = new Promise<boolean>((resolve) => handlers.state.push(({ stopped }) => resolve(stopped)));
      post({ kind: 'hello' });
      return Promise.race([answer, sleep(HELLO_TIMEOUT_MS, false, { ref: false })]);
    },
    onStop: (handler) => void handlers.stop.push(() => handler()),
    report(progress) {
      if (!counters) {
        counters = new Int32Array(new SharedArrayBuffer(PROGRESS_FIELDS.length * Int32Array.BYTES_PER_ELEMENT));
        post({ kind: 'progress', counters: counters.buffer as SharedArrayBuffer });
      }
      const shared = counters;
      for (const [slot, field] of PROGRESS_FIELDS.entries()) Atomics.store(shared, slot, progress[field]);
    },
    created(suite, resource) {
      if (announced.length === 0) {
        setImmediate(() => {
          post({ kind: 'created', resources: announced });
          announced = [];
        });
      }
      announced.push({ suite, resource });
    },
    onCreated: (handler) =>
      void handlers.created.push(({ resources }) => {
        for (const { suite, resource } of resources) handler(suite, resource);
      }),
    close: () => channel.close(),
  };
}

function failureOf(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  return isHarnessError(error) ? { message, code: error.code } : { message };
}

function errorOf(failure: Failure): Error {
  return failure.code ? new HarnessError(failure.code, failure.message) : new Error(failure.message);
}
