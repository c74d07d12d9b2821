import { createWriteStream, type WriteStream } from 'node:fs';
import type { Exchange } from '../transport/exchange.ts';
import { harEntry } from './har-entry.ts';
import type { Judgement } from '../rule-model/judge.ts';

/** Where a run's HAR entries wait, one JSON line each, until the report adds their verdicts: beside the HAR file. */
export function harSpoolPath(harFile: string): string {
  return `${harFile}.partial`;
}

/** Writes each exchange's HAR entry as it is recorded, so that a run holds none of them in memory. */
export interface HarSpool {
  /** Appends the entry of an exchange already redacted, with the judgements it was recorded with. */
  add(exchange: Exchange, judgements: readonly Judgement[]): void;
  /** Flushes and closes the file; rejects with the first write error. */
  close(): Promise<void>;
}

/** Opens (truncates) the spool of a HAR file. */
export function openHarSpool(harFile: string): HarSpool {
  const stream: WriteStream = createWriteStream(harSpoolPath(harFile), { encoding: 'utf8' });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    add(exchange, judgements) {
      if (failure === undefined) stream.write(`${JSON.stringify(harEntry(exchange, judgements, Date.now()))}\n`);
    },
    close() {
      if (failure !== undefined) {
        stream.destroy();
        return Promise.reject(failure);
      }
      return new Promise((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      });
    },
  };
}
