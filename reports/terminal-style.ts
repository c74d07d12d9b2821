/** How the terminal summary is drawn: colour or not, the width to wrap at, and whether every verdict is listed. */
export interface TerminalStyle {
  readonly color: boolean;
  readonly columns: number;
  readonly verbose: boolean;
}

/** Width used off a terminal (a CI log, a pipe). */
export const PLAIN_COLUMNS = 100;

/** A plain style: no colour, PLAIN_COLUMNS wide, causes only. */
export const PLAIN_STYLE: TerminalStyle = Object.freeze({ color: false, columns: PLAIN_COLUMNS, verbose: false });

/**
 * The style for an output stream: colour on a terminal unless `NO_COLOR` is set (non-empty), or anywhere when
 * `FORCE_COLOR` is set to anything but `0` or `false`; the stream's width on a terminal, else PLAIN_COLUMNS.
 */
export function terminalStyle(
  stream: { readonly isTTY?: boolean; readonly columns?: number },
  env: Readonly<Record<string, string | undefined>>,
  verbose = false,
): TerminalStyle {
  const force = env.FORCE_COLOR;
  const forced = force !== undefined && force !== '0' && force !== 'false';
  const color = forced || (force === undefined && !env.NO_COLOR && stream.isTTY === true);
  const columns = stream.isTTY && stream.columns && stream.columns >= 40 ? stream.columns : PLAIN_COLUMNS;
  return Object.freeze({ color, columns, verbose });
}

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], dim: [2, 22], bold: [1, 22] } as const;

/** A colour or weight of text in the summary. */
export type Paint = keyof typeof CODES;

/** Wraps text in the ANSI codes of `paint` when `color` is on; else returns it as is. */
export function painted(color: boolean, paint: Paint, text: string): string {
  if (!color || text === '') return text;
  const [open, close] = CODES[paint];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/** Wraps one line of plain text at word boundaries to `columns`, continuation lines indented by `indent` spaces. */
export function wrap(text: string, columns: number, indent: number): string[] {
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  for (const word of text.slice(lead.length).split(' ')) {
    const candidate = line.trim() === '' ? `${line}${word}` : `${line} ${word}`;
    if (candidate.length <= columns || line.trim() === '') {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = `${' '.repeat(indent)}${word}`;
  }
  lines.push(line);
  return lines;
}
