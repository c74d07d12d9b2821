import { setTimeout as sleep } from 'node:timers/promises';
import { BroadcastChannel } from 'node:worker_threads';
import type { RunConfig } from './config.ts';
import type { KnownFailures } from './known-failures.ts';
import type { CreatedResource } from './run-report.ts';

/** What the thread that sends requests has done so far. */
export interface RunProgress {
  /** Requests sent (429 retries included). */
  readonly sent: number;
  /** 429 answers waited out so far. */
  readonly rateLimited: number;
  /** Contract violations found so far. */
  readonly violations: number;
}

/**
 * What the command settles while vitest's worker starts (the plan, the target, the preflight) and hands to it before its
 * first request: the settings as planned, with the targets (the embedded reference target's once it listens).
 */
export interface HandedRun {
  readonly config: RunConfig;
  /** Requests the plan sends: with `--max-requests`, shrinking spends only what the plan leaves. */
  readonly plannedRequests: number;
  /** The GET requests the preflight sent before the run: `--max-requests` counts them too. */
  readonly preflightRequests?: number;
  /** With `--baseline`: the failures it accepts (unexpired entries), which the tests report as skipped. */
  readonly knownFailures?: KnownFailures;
}

type Message =
  | { readonly kind: 'ready' }
  | { readonly kind: 'run'; readonly run: HandedRun }
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
 * The channel between the main thread of a run (where signals arrive and the terminal is written) and the worker
 * thread that sends its requests: interrupts go one way, progress the other. BroadcastChannel reaches every thread
 * of the process; a channel is named after the run's seed and report directory, so that two runs do not hear each other.
 * Progress travels in memory both threads share, written after every exchange and read when the main thread needs it:
 * a message per exchange cost the sending thread a wake-up of the main thread each time (a tenth of its time).
 */
export interface RunChannel {
  /** Main thread: answers the sending thread's `ready` with the run once `settled` gives it, or tells it the run will not start (`undefined`, or `settled` rejected). */
  handOver(settled: Promise<HandedRun | undefined>): void;
  /** Sending thread: waits for the run the main thread settles; rejects when the main thread gives it up (a setting or the preflight failed). */
  awaitRun(): Promise<HandedRun>;
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

/** Opens a run's channel; it never keeps a thread alive. */
export function openRunChannel(run: { readonly seed: number; readonly reportDir: string }): RunChannel {
  const channel = new BroadcastChannel(`conformance-run:${run.seed}:${run.reportDir}`);
  channel.unref();
  const handlers: { [K in Message['kind']]: Array<(message: Extract<Message, { kind: K }>) => void> } = { ready: [], run: [], abandon: [], hello: [], state: [], stop: [], progress: [], created: [] };
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
      const abandon = (): void => post({ kind: 'abandon' });
      handlers.ready.push(() => void settled.then((run) => (run ? post({ kind: 'run', run }) : abandon()), abandon));
    },
    awaitRun() {
      const answer = new Promise<HandedRun>((resolve, reject) => {
        handlers.run.push(({ run }) => resolve(run));
        handlers.abandon.push(() => reject(new Error('the command gave the run up before its first request (see its message)')));
      });
      post({ kind: 'ready' });
      return answer;
    },
    serve: (stopped) => void handlers.hello.push(() => post({ kind: 'state', stopped: stopped() })),
    stop: () => post({ kind: 'stop' }),
    progress() {
      const read = (field: keyof RunProgress): number => (counters ? Atomics.load(counters, PROGRESS_FIELDS.indexOf(field)) : 0);
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
