import { stripVTControlCharacters } from 'node:util';
import { Writable } from 'node:stream';

/** vitest's own notices that a report file was written: the run's summary already names the files. */
const NOTICE = /^\s*(?:\S+ )?(?:JUNIT|JSON|blob|BLOB) report written to /i;

/**
 * A stream that passes vitest's output to `target`, without its report-written notices; it keeps the target's terminal
 * traits.
 */
export function quietVitestOutput(target: NodeJS.WriteStream): Writable {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const text = chunk.toString();
      const kept = text
        .split('\n')
        .filter((line) => !NOTICE.test(stripVTControlCharacters(line)))
        .join('\n');
      if (kept.trim() !== '') target.write(kept);
      callback();
    },
  });
  return Object.assign(stream, { isTTY: target.isTTY, columns: target.columns });
}
