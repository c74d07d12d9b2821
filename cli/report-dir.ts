import { access, constants, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HarnessError } from '../core/errors.ts';

/** Creates the report directory and checks that it can be written, before any request is sent. */
export async function ensureReportDir(reportDir: string): Promise<string> {
  const dir = resolve(reportDir);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HarnessError(
      'CONFIG_INVALID',
      `--report-dir ${dir} cannot be written (${code}): name a directory you can write to.`,
      { cause: error },
    );
  }
  return dir;
}
