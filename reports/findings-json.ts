import type { RuleResult } from '../core/finding.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { FINDINGS_SCHEMA_VERSION } from './file-schemas.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';

/**
 * The document `findings.json` holds (its format is schemas/findings.schema.json): the versions of the format and of the tool, the report, each result led by its rule, operation, outcome and message,
 * and each failure carrying the evidence and reproduction of its first finding (all findings stay under `findings`).
 */
export function findingsDocument(report: BaselinedRunReport): object {
  const { outcome, seed, startedAt, durationMs, baseline, stats, results, ...rest } = report;
  return {
    outcome,
    seed,
    startedAt,
    durationMs,
    ...(baseline ? { baseline } : {}),
    stats,
    results: results.map(resultEntry),
    ...rest,
    toolVersion: TOOL_VERSION,
    schemaVersion: FINDINGS_SCHEMA_VERSION,
  };
}

/** Renders `findings.json`, the machine-readable result of a run. */
export function findingsJson(report: BaselinedRunReport): string {
  return `${JSON.stringify(findingsDocument(report), null, 2)}\n`;
}

function resultEntry(result: RuleResult): object {
  const { rule, operation, outcome, message, ...rest } = result;
  const first = outcome === 'failed' ? result.findings[0] : undefined;
  return {
    rule,
    operation,
    outcome,
    message,
    ...(first ? { evidence: first.evidence, reproduction: first.reproduce } : {}),
    ...rest,
  };
}
