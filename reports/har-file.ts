import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { Outcome } from '../evidence/finding.ts';
import type { HarEntry } from '../evidence/har-entry.ts';
import { harSpoolPath } from '../evidence/har-spool.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { TOOL } from './tool-version.ts';

/** What writing a HAR file came to: its path, entries and size. */
export interface WrittenHar {
  readonly file: string;
  readonly entries: number;
  readonly bytes: number;
}

/** A rule an entry gave evidence for, with that rule's verdict on the entry's operation. */
export interface HarVerdict {
  readonly rule: string;
  readonly part?: string;
  readonly violations: number;
  readonly outcome: Outcome | 'not reported';
}

async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Writes the HAR 1.2 file of a run from the entries its suites spooled (one line each, already redacted), adding to
 * each entry the verdict of every rule it gave evidence for (`_verdicts`); entry by entry, so that a long run's HAR
 * is never held in memory. The file appears whole or not at all: a HAR already at the path is replaced only at the end.
 */
export async function writeHar(file: string, report: RunReport, redact: (text: string) => string): Promise<WrittenHar> {
  const spool = harSpoolPath(file);
  const outcomes = new Map(report.results.map((r) => [`${r.rule}\u0000${r.operation}`, r.outcome]));
  const partial = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(partial, { encoding: 'utf8' });
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => undefined);
  let entries = 0;
  const run = async (): Promise<void> => {
    const log = {
      version: '1.2',
      creator: { name: TOOL.name, version: TOOL.version },
      comment: `conformance run, seed ${report.seed}: ${report.outcome}`,
      _seed: report.seed,
      _outcome: report.outcome,
      _replay: report.replay,
    };
    await write(out, `{"log":${JSON.stringify(log).slice(0, -1)},"entries":[`);
    const lines = createInterface({ input: createReadStream(spool, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line === '') continue;
      const entry = JSON.parse(line) as HarEntry;
      const { _evidence, ...rest } = entry;
      const verdicts: HarVerdict[] = _evidence.map((e) => ({
        ...e,
        outcome: outcomes.get(`${e.rule}\u0000${entry._operation}`) ?? 'not reported',
      }));
      await write(out, `${entries === 0 ? '\n' : ',\n'}${redact(JSON.stringify({ ...rest, _verdicts: verdicts }))}`);
      entries += 1;
    }
    await write(out, '\n]}}\n');
    out.end();
    await once(out, 'finish');
  };
  try {
    await Promise.race([run(), failed]);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, file);
  await rm(spool, { force: true });
  return { file, entries, bytes: (await stat(file)).size };
}
