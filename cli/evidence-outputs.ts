import { open } from 'node:fs/promises';
import { HarnessError } from '../core/errors.ts';
import type { RunConfig } from '../core/config.ts';
import { harSpoolPath } from '../core/har-spool.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import type { ReportIo } from '../reports/write-reports.ts';

/** Checks, before any request is sent, that `--har` can be written: its spool is created beside it, so its folder must take files. */
export async function checkEvidenceOutputs(config: RunConfig): Promise<void> {
  if (config.har === undefined) return;
  try {
    await (await open(harSpoolPath(config.har), 'w')).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HarnessError('CONFIG_INVALID', `--har ${config.har} cannot be written (${code}): name a file in a folder you can write to.`, { cause: error });
  }
}

/** Writes what `--har` asks for, once the reports are written; returns the paths written. */
export async function writeEvidence(config: RunConfig, report: BaselinedRunReport, io: ReportIo): Promise<string[]> {
  const written: string[] = [];
  if (config.har !== undefined) {
    const { writeHar } = await import('../reports/har-file.ts');
    const har = await writeHar(config.har, report, io.redact);
    io.out(`HAR: ${har.file} (${har.entries} entries, ${har.bytes} bytes)`);
    written.push(har.file);
  }
  return written;
}
