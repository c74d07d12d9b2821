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
