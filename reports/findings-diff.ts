import type { FindingsFile } from './findings-file.ts';
import { operationName } from './operation-name.ts';

type Result = FindingsFile['results'][number];

/** How a newer run differs from an older one, by rule and operation. */
export interface FindingsDiff {
  readonly old: string;
  readonly new: string;
  /** Failed now, did not fail before (passed, skipped or not run). */
  readonly newFailures: readonly Result[];
  /** Failed before, passes now. */
  readonly fixed: readonly Result[];
  /** Failed in both. */
  readonly stillFailing: readonly Result[];
  /** Skipped now, ran before (passed or failed). */
  readonly newlySkipped: readonly (Result & { readonly was: Result['outcome'] })[];
}

/** Compares two findings files. */
export function diffFindings(older: FindingsFile, newer: FindingsFile): FindingsDiff {
  const before = new Map(older.results.map((r) => [`${r.rule}\u0000${r.operation}`, r]));
  const was = (r: Result): Result['outcome'] | undefined => before.get(`${r.rule}\u0000${r.operation}`)?.outcome;
  return {
    old: older.file,
    new: newer.file,
    newFailures: newer.results.filter((r) => r.outcome === 'failed' && was(r) !== 'failed'),
    fixed: newer.results.filter((r) => r.outcome === 'passed' && was(r) === 'failed'),
    stillFailing: newer.results.filter((r) => r.outcome === 'failed' && was(r) === 'failed'),
    newlySkipped: newer.results.flatMap((r) => {
      const previous = was(r);
      return r.outcome === 'skipped' && (previous === 'passed' || previous === 'failed')
        ? [{ ...r, was: previous }]
        : [];
    }),
  };
}

/** Renders a findings diff for the terminal: the one place its prose is written. */
export function renderFindingsDiff(diff: FindingsDiff): string {
  const section = (title: string, mark: string, items: readonly Result[], detail: (r: Result) => string): string[] =>
    items.length === 0
      ? []
      : [
          `${title} (${items.length}):`,
          ...items.map((r) => `  ${mark} ${r.rule}  ${operationName(r)}${detail(r)}`),
          '',
        ];
  const lines = [
    `conformance diff: ${diff.old} -> ${diff.new}`,
    '',
    ...section('New failures', '✗', diff.newFailures, (r) => `: ${r.message}`),
    ...section('Fixed', '✓', diff.fixed, () => ''),
    ...section('Still failing', '✗', diff.stillFailing, () => ''),
    ...section('Newly skipped', '-', diff.newlySkipped, (r) => `: ${r.message}`),
    `${diff.newFailures.length} new failure(s), ${diff.fixed.length} fixed, ${diff.stillFailing.length} ` +
      `still failing, ${diff.newlySkipped.length} newly skipped.`,
  ];
  return lines.join('\n');
}
