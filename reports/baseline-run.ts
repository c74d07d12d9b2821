import { isHarnessError } from '../core/errors.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { readBaseline, writeBaseline, type Baseline } from './baseline-file.ts';
import {
  applyBaseline,
  compareWithBaseline,
  unexpiredEntries,
  updatedBaseline,
  type BaselinedRunReport,
} from './baseline-comparison.ts';
import type { KnownFailures } from '../run/known-failures.ts';

/**
 * The baseline settings of a run, and the baseline read before it (absent when the file does not exist yet).
 */
export interface LoadedBaseline {
  readonly file: string;
  readonly update: boolean;
  readonly previous?: Baseline;
  /** The file does not exist yet (a first run): no failure is known, each counts as new. */
  readonly absent?: true;
}

/**
 * Reads the baseline a run compares with, its entries checked against the rules and operations that exist. A file that
 * does not exist yet is an empty baseline (a workflow's first run, before anyone wrote it): every failure is new, and
 * the reports say the file was not found; `update` creates it. Throws BASELINE_INVALID for a file that is unreadable or
 * wrong.
 */
export async function loadBaseline(
  file: string,
  update: boolean,
  knownRules: readonly string[],
  knownOperations: readonly string[],
): Promise<LoadedBaseline> {
  try {
    return { file, update, previous: await readBaseline(file, knownRules, knownOperations) };
  } catch (error) {
    const missing = isHarnessError(error) && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    if (missing) return { file, update, absent: true };
    throw error;
  }
}

/**
 * The failures a run with this baseline accepts on `now`'s day: every one under `--update-baseline`, else the unexpired
 * entries.
 */
export function acceptedFailures(loaded: LoadedBaseline, now: Date): KnownFailures {
  if (loaded.update) return { every: true };
  return { entries: unexpiredEntries(loaded.previous ?? { version: 1, entries: [] }, utcDay(now)) };
}

/**
 * Applies the baseline to a finished run; with `update`, first rewrites the file from the run's failures, unless a
 * signal stopped the run (its failures are not all of the target's: the file is left as it was).
 */
export async function judgeWithBaseline(
  report: RunReport,
  loaded: LoadedBaseline,
  now: Date,
): Promise<BaselinedRunReport> {
  let baseline = loaded.previous ?? { version: 1 as const, entries: [] };
  if (loaded.update && report.interrupted === undefined) {
    baseline = updatedBaseline(report.results, loaded.previous);
    await writeBaseline(loaded.file, baseline);
  }
  const summary = compareWithBaseline(report.results, baseline, loaded.file, utcDay(now));
  return applyBaseline(report, loaded.absent && !loaded.update ? { ...summary, absent: true } : summary);
}

function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}
