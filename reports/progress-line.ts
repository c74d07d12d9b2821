/** Where progress goes: a terminal that can rewrite its last line, or a plain line sink. */
export interface ProgressSink {
  readonly line: (text: string) => void;
  /** Set on an interactive terminal: writes raw text, so that one status line can be rewritten in place. */
  readonly raw?: (text: string) => void;
  readonly columns?: number;
}

/** A status line rewritten in place on a terminal, and silent elsewhere; permanent lines are printed above it. */
export interface ProgressLine {
  status(text: string): void;
  print(text: string): void;
  clear(): void;
}

/** Creates the run's progress line on a sink. */
export function progressLine(sink: ProgressSink): ProgressLine {
  let shown = false;
  const clear = (): void => {
    if (shown) sink.raw?.('\r\x1b[2K');
    shown = false;
  };
  return {
    status(text) {
      if (!sink.raw) return;
      const width = Math.max(20, (sink.columns || 80) - 1);
      sink.raw(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      shown = true;
    },
    print(text) {
      clear();
      sink.line(text);
    },
    clear,
  };
}

/** A line printed off a terminal whenever the run has been quiet for a while. */
export interface Heartbeat {
  /** Prints a line and restarts the quiet. */
  line(text: string): void;
  stop(): void;
}

/**
 * Creates a heartbeat: `print` every line through it, and after every `quietMs` without one it prints `text()`,
 * so that a log that is not a terminal (CI) is never silent for long. Its timer does not keep the process alive.
 */
export function heartbeat(print: (text: string) => void, quietMs: number, text: () => string): Heartbeat {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (): void => {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => {
      print(text());
      arm();
    }, quietMs).unref();
  };
  arm();
  return {
    line(line) {
      print(line);
      arm();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
