import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HarnessError } from '../core/errors.ts';
import type { RunConfig } from '../settings/config.ts';
import { harSpoolPath } from '../evidence/har-spool.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import type { ReportIo } from '../reports/write-reports.ts';

/**
 * Checks, before any request is sent, that `--bundle` names a new or empty folder and that `--har` can be written (its
 * spool is created beside it, so its folder must take files).
 */
export async function checkEvidenceOutputs(config: RunConfig): Promise<void> {
  if (config.bundle !== undefined) await (await import('./bundle.ts')).checkBundleFolder(config.bundle, '--bundle');
  if (config.har === undefined) return;
  try {
    await (await open(harSpoolPath(config.har), 'w')).close();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HarnessError(
      'CONFIG_INVALID',
      `--har ${config.har} cannot be written (${code}): name a file in a folder you can write to.`,
      { cause: error },
    );
  }
}

/** Writes what `--har` and `--bundle` ask for, once the reports are written; returns the paths written. */
export async function writeEvidence(config: RunConfig, report: BaselinedRunReport, io: ReportIo): Promise<string[]> {
  const written: string[] = [];
  if (config.har !== undefined) {
    const { writeHar } = await import('../reports/har-file.ts');
    const har = await writeHar(config.har, report, io.redact);
    io.out(`HAR: ${har.file} (${har.entries} entries, ${har.bytes} bytes)`);
    written.push(har.file);
  }
  if (config.bundle !== undefined) {
    const { writeBundle } = await import('./bundle.ts');
    const bundle = await writeBundle(config.bundle, resolve(config.reportDir), config.har, '--bundle');
    io.out(`Bundle: ${config.bundle} (${bundle.files} file(s) and manifest.json; check with conformance verify)`);
    written.push(bundle.manifest);
  }
  return written;
}
