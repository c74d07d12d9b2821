import { BroadcastChannel } from 'node:worker_threads';
import { HarnessError, type HarnessErrorCode, isHarnessError } from '../core/errors.ts';
import type { CreatedResource, JudgedSuite } from './run-report-types.ts';
import type { PreparedRun, RunSettings } from './run-settings.ts';

/** What the thread that sends requests has done so far. */
export interface RunProgress {
  /** Requests sent (429 retries included). */
  readonly sent: number;
  /** 429 answers waited out so far (each retried: one more request sent). */
  readonly rateLimited: number;
  /** Requests sent to shrink failures (beyond the plan, within the shrink budget). */
  readonly shrinking: number;
  /** Contract violations found so far. */
  readonly violations: number;
}

/**
 * What the command pushes, once, to the thread that prepares, sends and judges its run (the first message of that
 * thread's port): the settings, settled; the name of the channel the thread's events come back on; and the memory both
 * threads share (whether the run is stopped, its progress).
 */
export interface RunLink {
  readonly settings: RunSettings;
  readonly channel: string;
  readonly memory: SharedArrayBuffer;
}

/** Why a run could not be prepared, as it crosses threads: a HarnessError keeps its code. */
interface Failure {
  readonly message: string;
  readonly code?: HarnessErrorCode;
}

/** A resource a suite left on the target, as the sending thread announces it. */
interface Announced {
  readonly suite: string;
  readonly resource: CreatedResource;
}

/** What the sending thread tells the command, in this one direction. */
type RunEvent =
  | { readonly kind: 'prepared'; readonly run: PreparedRun; readonly verdicts: number }
  | { readonly kind: 'failed'; readonly failure: Failure }
  | { readonly kind: 'created'; readonly resources: readonly Announced[] }
  /** The stop was seen: what was announced before it, sent (it may be none). */
  | { readonly kind: 'stopped'; readonly resources: readonly Announced[] }
  /** The run's session is over: the last of what it announced (it may be none); nothing more will come. */
  | { readonly kind: 'ended'; readonly resources: readonly Announced[] }
  /** A suite's groups are through: its verdicts and report (the `index`-th suite of the run). */
  | { readonly kind: 'judged'; readonly index: number; readonly suite: JudgedSuite }
  /** Every suite is judged: the run's last event. */
  | { readonly kind: 'finished' };

/** The slots of the shared memory: the stop flag, then the progress counters. */
const SLOTS = Object.freeze(['stopped', 'sent', 'rateLimited', 'shrinking', 'violations'] as const);
const slot = (name: (typeof SLOTS)[number]): number => SLOTS.indexOf(name);

/**
 * A run's link, for settings settled before any thread that sends starts; the channel is named after the run's seed and
 * report directory, so that two runs of one process do not hear each other.
 */
export function runLink(settings: RunSettings): RunLink {
  return {
    settings,
    channel: `conformance-run:${settings.config.seed}:${settings.config.reportDir}`,
    memory: new SharedArrayBuffer(SLOTS.length * Int32Array.BYTES_PER_ELEMENT),
  };
}

/** The run as the sending thread prepared it, and how many verdicts it will reach. */
export interface PreparedEvent {
  readonly run: PreparedRun;
  /** One per operation and rule of each suite run (of the shard's part). */
  readonly verdicts: number;
}

/**
 * The command's side of a run's link: the run prepared, progress, what the suites create, each suite's verdicts;
 * interrupts go out.
 */
export interface RunListener {
  /** The run as the sending thread prepared it; rejects with why it could not (a HarnessError keeps its code). */
  readonly prepared: Promise<PreparedEvent>;
  /** Resolves once every suite is judged: the suites' verdicts and reports, in the run's order of suites. */
  readonly finished: Promise<readonly JudgedSuite[]>;
  /** The suites judged so far, in the run's order of suites (for a hard stop, and progress). */
  judged(): readonly JudgedSuite[];
  /** Calls `handler` with each suite as it is judged. */
  onJudged(handler: (suite: JudgedSuite) => void): void;
  /** Tells the sending thread to send nothing new but the requests that put back what the run changed. */
  stop(): void;
  /**
   * Resolves true once the sending thread has answered the stop with every resource announced before it saw the stop
   * (and this thread has heard them), or has said its session ended (every resource announced, heard), false after
   * `ms` without either (a thread not started, or busy). A hard stop reads what was created only then: a second signal
   * can be handled in the same turn as the first, before the answer to the first arrives.
   */
  heardStop(ms: number): Promise<boolean>;
  /** How far the run is, as the sending thread last wrote it (zeros before). */
  progress(): RunProgress;
  /** Calls `handler` with every resource a suite left on the target. */
  onCreated(handler: (suite: string, resource: CreatedResource) => void): void;
  close(): void;
}

/** Listens to the thread that sends a run (it never keeps the process alive). */
export function listenToRun(link: RunLink): RunListener {
  const channel = new BroadcastChannel(link.channel);
  channel.unref();
  const memory = new Int32Array(link.memory);
  const created: Array<(suite: string, resource: CreatedResource) => void> = [];
  const judgedHandlers: Array<(suite: JudgedSuite) => void> = [];
  const judged: Array<JudgedSuite | undefined> = [];
  let settle: { resolve(event: PreparedEvent): void; reject(error: Error): void } | undefined;
  const prepared = new Promise<PreparedEvent>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let finish: ((suites: readonly JudgedSuite[]) => void) | undefined;
  const finished = new Promise<readonly JudgedSuite[]>((resolve) => {
    finish = resolve;
  });
  const inOrder = (): JudgedSuite[] => judged.filter((suite) => suite !== undefined);
  // Read where it is awaited; a run given up before must not count as an unhandled rejection.
  prepared.catch(() => undefined);
  /** True once nothing announced before a stop can still be on its way: the stop answered, or the session ended. */
  let allHeard = false;
  const onAllHeard: Array<() => void> = [];
  channel.onmessage = (message) => {
    const event = (message as MessageEvent<RunEvent>).data;
    if (event.kind === 'prepared') settle?.resolve({ run: event.run, verdicts: event.verdicts });
    else if (event.kind === 'failed') settle?.reject(errorOf(event.failure));
    else if (event.kind === 'judged') {
      judged[event.index] = event.suite;
      for (const handler of judgedHandlers) handler(event.suite);
    } else if (event.kind === 'finished') {
      settle?.reject(new Error('the run ended before it was prepared'));
      finish?.(inOrder());
    } else {
      for (const { suite, resource } of event.resources) for (const handler of created) handler(suite, resource);
      if (event.kind === 'stopped' || event.kind === 'ended') {
        allHeard = true;
        for (const heard of onAllHeard.splice(0)) heard();
      }
    }
  };
  return {
    prepared,
    finished,
    judged: inOrder,
    onJudged: (handler) => void judgedHandlers.push(handler),
    stop() {
      Atomics.store(memory, slot('stopped'), 1);
      Atomics.notify(memory, slot('stopped'));
    },
    heardStop: (ms) =>
      allHeard
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), ms);
            onAllHeard.push(() => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
    progress: () => ({
      sent: Atomics.load(memory, slot('sent')),
      rateLimited: Atomics.load(memory, slot('rateLimited')),
      shrinking: Atomics.load(memory, slot('shrinking')),
      violations: Atomics.load(memory, slot('violations')),
    }),
    onCreated: (handler) => void created.push(handler),
    close: () => channel.close(),
  };
}

/**
 * The sending thread's side of a run's link. Progress is written to the shared memory after every exchange and read
 * when the command needs it (a message per exchange cost the sending thread a wake-up of the command's thread each
 * time, a tenth of its time); the stop is read from it too, so that a stop before this thread started is not missed.
 */
export interface RunReporter {
  /** Calls `handler` once the run is stopped (at once, when it already is). */
  onStop(handler: () => void): void;
  /** Writes how far the run is. */
  report(progress: RunProgress): void;
  /** Tells the command that the run is prepared (and how many verdicts it will reach), or why it could not be. */
  prepared(outcome: PreparedEvent | { readonly error: unknown }): void;
  /** Tells the command that the `index`-th suite of the run is judged. */
  judged(index: number, suite: JudgedSuite): void;
  /** Tells the command that every suite is judged. */
  finished(): void;
  /**
   * Tells the command what a suite left on the target, as it happens: the resources announced within CREATED_BATCH_MS
   * go in one message, and every one announced so far goes at once when the run is stopped (so that a run stopped at
   * once still lists them) or the link closed.
   */
  created(suite: string, resource: CreatedResource): void;
  /** Sends what is announced and not sent yet, and closes the link (the preparation's, which creates nothing). */
  close(): void;
  /**
   * Sends what is announced and not sent yet as the session's last word, and closes the link: a stop that comes after
   * (no thread is left to answer it) need not wait for an answer.
   */
  end(): void;
}

/**
 * How long the resources announced wait to go in one message: a message per turn of the event loop cost the sending
 * thread about 3% of a run at 0 ms latency (and the command's thread a wake-up each), for lists that only a stop reads.
 */
const CREATED_BATCH_MS = 50;

/** Opens the sending thread's side of a run's link (it never keeps the thread alive). */
export function openRunChannel(link: RunLink): RunReporter {
  const channel = new BroadcastChannel(link.channel);
  channel.unref();
  const memory = new Int32Array(link.memory);
  const post = (event: RunEvent): void => channel.postMessage(event);
  // Resolved at once when the flag is already set; a pending wait keeps no thread alive.
  const stopped = (handler: () => void): void => {
    const waited = (Atomics as unknown as AsyncAtomics).waitAsync(memory, slot('stopped'), 0);
    if (waited.async) void waited.value.then(handler);
    else handler();
  };
  /** The resources announced and not sent yet, and the timer that sends them. */
  let announced: Announced[] = [];
  let batch: NodeJS.Timeout | undefined;
  let closed = false;
  const send = (kind: 'created' | 'stopped' | 'ended'): void => {
    clearTimeout(batch);
    batch = undefined;
    // A closed channel cannot post (its stop may be seen after it closed: the preparation's closes once prepared).
    if (closed || (announced.length === 0 && kind === 'created')) return;
    post({ kind, resources: announced });
    announced = [];
  };
  // What a stopped run created goes at once, and the stop is answered even when nothing was.
  stopped(() => send('stopped'));
  return {
    onStop: stopped,
    report(progress) {
      Atomics.store(memory, slot('sent'), progress.sent);
      Atomics.store(memory, slot('rateLimited'), progress.rateLimited);
      Atomics.store(memory, slot('shrinking'), progress.shrinking);
      Atomics.store(memory, slot('violations'), progress.violations);
    },
    prepared: (outcome) =>
      post(
        'run' in outcome
          ? { kind: 'prepared', run: outcome.run, verdicts: outcome.verdicts }
          : { kind: 'failed', failure: failureOf(outcome) },
      ),
    judged: (index, suite) => post({ kind: 'judged', index, suite }),
    finished: () => post({ kind: 'finished' }),
    created(suite, resource) {
      announced.push({ suite, resource });
      if (Atomics.load(memory, slot('stopped')) === 1) send('created');
      else batch ??= setTimeout(send, CREATED_BATCH_MS, 'created');
    },
    close() {
      send('created');
      closed = true;
      channel.close();
    },
    end() {
      send('ended');
      closed = true;
      channel.close();
    },
  };
}

/** `Atomics.waitAsync` (ES2024; in Node since 16), which the compiler's library here does not declare. */
interface AsyncAtomics {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
  ): { readonly async: false; readonly value: string } | { readonly async: true; readonly value: Promise<string> };
}

function failureOf({ error }: { readonly error: unknown }): Failure {
  const message = error instanceof Error ? error.message : String(error);
  return isHarnessError(error) ? { message, code: error.code } : { message };
}

function errorOf(failure: Failure): Error {
  return failure.code ? new HarnessError(failure.code, failure.message) : new Error(failure.message);
}
