import type { TerminalStyle } from '../reports/terminal-style.ts';

/** Where a command writes: standard output and standard error, a line at a time, and how its terminal draws. */
export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Colour, width and verbosity of the terminal summary; plain when absent. */
  readonly style?: TerminalStyle;
}
