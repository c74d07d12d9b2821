/** Where a command writes: standard output and standard error, a line at a time. */
export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}
