import { isAbsolute } from 'node:path';
import type { RuleResult } from '../evidence/finding.ts';
import type { SourceLocation } from '../spec/operation-locations.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { operationName } from './operation-name.ts';
import { ruleCatalogue } from './rule-catalogue.ts';
import { failuresWorstFirst } from './worst-first.ts';

type Level = 'error' | 'warning' | 'notice';

/** GitHub shows at most 10 annotations of each kind per step (and 50 per job): the rest are counted in the last one. */
export const ANNOTATIONS_PER_KIND = 10;

interface Annotation {
  readonly level: Level;
  readonly title: string;
  readonly message: string;
  readonly at?: SourceLocation;
}

/**
 * GitHub Actions workflow commands for a run, worst first and at most ANNOTATIONS_PER_KIND of each kind (the last one
 * of a kind counts those left out): an `::error` per harness error, per failure (a `::warning` for one the baseline
 * accepts) and per expired baseline entry, and a `::notice` per unexpected pass. A failure points at its operation in
 * the spec file when `locations` has it inside the checkout.
 */
export function githubAnnotations(
  report: BaselinedRunReport,
  locations: ReadonlyMap<string, SourceLocation> = new Map(),
): string[] {
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const failures = failuresWorstFirst(report, ruleCatalogue).map(
    (r): Annotation => ({
      level: known.has(`${r.rule}\u0000${r.operation}`) ? 'warning' : 'error',
      title: r.rule,
      message: failureText(r),
      ...(locations.has(r.operation) ? { at: locations.get(r.operation)! } : {}),
    }),
  );
  const errors = report.errors.map(
    (e): Annotation => ({ level: 'error', title: 'conformance harness error', message: e }),
  );
  const expired = (report.baseline?.expired ?? []).map(
    (e): Annotation => ({
      level: 'error',
      title: `baseline: ${e.rule}`,
      message:
        `${operationName(e)}: the baseline entry expired on ${e.expires} (now ${e.now}); ` +
        `fix the failure, or renew or remove the entry in ${report.baseline!.file}`,
    }),
  );
  const stale = (report.baseline?.unexpectedPasses ?? []).map(
    (e): Annotation => ({
      level: 'notice',
      title: `baseline: ${e.rule}`,
      message: `${operationName(e)}: passes now; remove its entry from ${report.baseline!.file}`,
    }),
  );
  const all = [...errors, ...failures, ...expired, ...stale];
  return (['error', 'warning', 'notice'] as const).flatMap((level) =>
    capped(all.filter((a) => a.level === level)).map(command),
  );
}

/** The first annotations of a kind, within GitHub's cap; the last one says how many more the summary and SARIF hold. */
function capped(annotations: readonly Annotation[]): Annotation[] {
  if (annotations.length <= ANNOTATIONS_PER_KIND) return [...annotations];
  const shown = annotations.slice(0, ANNOTATIONS_PER_KIND - 1);
  const rest = annotations.length - shown.length;
  const level = annotations[0]!.level;
  return [
    ...shown,
    {
      level,
      title: `conformance: ${rest} more`,
      message:
        `${rest} more ${level}s than GitHub shows as annotations: ` +
        'the job summary, summary.md and results.sarif list every one.',
    },
  ];
}

function failureText(result: RuleResult): string {
  const reproduce = result.findings[0]?.reproduce;
  return [
    `${operationName(result)}: ${result.message}`,
    ...(reproduce ? [`Reproduce (seed ${reproduce.seed}): ${reproduce.curl}`] : []),
  ].join('\n');
}

function command({ level, title, message, at }: Annotation): string {
  const where = at && !isAbsolute(at.file) ? `file=${escapeProperty(at.file)},line=${at.line},col=${at.column},` : '';
  return `::${level} ${where}title=${escapeProperty(title)}::${escapeData(message)}`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
