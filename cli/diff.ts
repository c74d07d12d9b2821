import { HarnessError } from '../core/errors.ts';
import { diffFindings, renderFindingsDiff } from '../reports/findings-diff.ts';
import { fileValidator } from '../reports/file-schemas.ts';
import { readFindingsFile } from '../reports/findings-file.ts';
import type { Io } from './io.ts';

/**
 * `conformance diff OLD.json NEW.json`: prints what changed between two runs; 1 when there are new failures, else 0.
 */
export async function runDiff(argv: readonly string[], io: Io): Promise<number> {
  if (argv.length !== 2 || argv.some((arg) => arg.startsWith('-'))) {
    throw new HarnessError('CONFIG_INVALID', 'diff takes two findings files: `conformance diff OLD.json NEW.json`.');
  }
  const validate = fileValidator('findings');
  const [older, newer] = await Promise.all(argv.map((file) => readFindingsFile(file, validate)));
  const diff = diffFindings(older!, newer!);
  io.out(renderFindingsDiff(diff));
  return diff.newFailures.length > 0 ? 1 : 0;
}
