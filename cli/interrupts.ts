/** The signals that interrupt a run, and the exit code of each (128 and the signal's number, as shells report it). */
export const INTERRUPT_EXIT_CODES = Object.freeze({ SIGINT: 130, SIGTERM: 143 });

/** A signal that interrupts a run. */
export type InterruptSignal = keyof typeof INTERRUPT_EXIT_CODES;

/** What a run does on interrupts: the first one winds it down, the second ends it at once. */
export interface InterruptHandlers {
  first(signal: InterruptSignal): void;
  second(signal: InterruptSignal): void;
}

/** The interrupts a run has received. */
export interface Interrupts {
  /** The first signal received, if any. */
  received(): InterruptSignal | undefined;
  /** Stops listening (the process's default handling of the signals comes back). */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM for the length of a run. */
export function watchInterrupts(handlers: InterruptHandlers): Interrupts {
  let first: InterruptSignal | undefined;
  const listener = (signal: NodeJS.Signals): void => {
    const received = signal as InterruptSignal;
    if (first === undefined) {
      first = received;
      handlers.first(received);
    } else {
      handlers.second(received);
    }
  };
  for (const signal of Object.keys(INTERRUPT_EXIT_CODES)) process.on(signal, listener);
  return {
    received: () => first,
    dispose() {
      for (const signal of Object.keys(INTERRUPT_EXIT_CODES)) process.removeListener(signal, listener);
    },
  };
}

/** Why a run stopped at once has no verdict: it was stopped before any suite was judged. */
export const STOPPED_BEFORE_ANY_VERDICT = 'the run was stopped at once, before any verdict';
