import { isHarnessError } from '../core/errors.ts';
import type { RunReport } from '../core/run-report.ts';
import { readBaseline, writeBaseline, type Baseline } from './baseline-file.ts';
import { applyBaseline, compareWithBaseline, updatedBaseline, type BaselinedRunReport } from './baseline-comparison.ts';

/** The baseline settings of a run, and the baseline read before it (absent when `--update-baseline` creates the file). */
export interface LoadedBaseline {
  readonly file: string;
  readonly update: boolean;
  readonly previous?: Baseline;
}

/** Reads the baseline a run compares with; with `update`, a missing file is fine (it will be created). Throws BASELINE_INVALID. */
export async function loadBaseline(file: string, update: boolean, knownRules: readonly string[]): Promise<LoadedBaseline> {
  try {
    return { file, update, previous: await readBaseline(file, knownRules) };
  } catch (error) {
    const missing = isHarnessError(error) && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    if (update && missing) return { file, update };
    throw error;
  }
}

/** Applies the baseline to a finished run; with `update`, first rewrites the file from the run's failures. */
export async function judgeWithBaseline(report: RunReport, loaded: LoadedBaseline, now: Date): Promise<BaselinedRunReport> {
  let baseline = loaded.previous ?? { version: 1 as const, entries: [] };
  if (loaded.update) {
    baseline = updatedBaseline(report.results, loaded.previous);
    await writeBaseline(loaded.file, baseline);
  }
  return applyBaseline(report, compareWithBaseline(report.results, baseline, loaded.file, now.toISOString().slice(0, 10)));
}
