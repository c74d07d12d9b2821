import type { RecordedRequest, RecordedResponse } from '../transport/exchange.ts';
import type { Finding, RuleResult } from '../evidence/finding.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { FINDINGS_SCHEMA_VERSION } from './file-schemas.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { causesOf, type Cause } from './causes.ts';
import { compactJson } from './compact-json.ts';
import { ruleCatalogue } from './rule-catalogue.ts';

/**
 * The document `findings.json` holds (its format is schemas/findings.schema.json, versions of the format and of the
 * tool last): the report with its causes; each result led by its rule, operation, outcome and message; a failure with
 * the evidence and reproduction of its first finding, and its other kept findings without evidence. Each body is stored
 * once: a response's parsed JSON when it parsed, else its text; a request's text.
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
    causes: causesOf(report, ruleCatalogue).map(causeEntry),
    results: results.map(resultEntry),
    ...rest,
    toolVersion: TOOL_VERSION,
    schemaVersion: FINDINGS_SCHEMA_VERSION,
  };
}

/**
 * Renders `findings.json`, the machine-readable result of a run: one line per key of the document and per entry of
 * its lists and maps (each result, cause, coverage row on its own line).
 */
export function findingsJson(report: BaselinedRunReport): string {
  return `${compactJson(findingsDocument(report))}\n`;
}

function causeEntry(cause: Cause): object {
  const { rule, info, severity, path, kind, summary, examples, known, operations } = cause;
  return {
    rule,
    ...(info ? { basis: info.basis, doc: info.doc } : {}),
    severity,
    path,
    kind,
    summary,
    examples,
    known,
    operations: operations.map(({ operation, operationId, examples: n, known: k }) => ({
      operation,
      ...(operationId ? { operationId } : {}),
      examples: n,
      known: k,
    })),
  };
}

function resultEntry(result: RuleResult): object {
  const { rule, operation, outcome, message, findings, ...rest } = result;
  const first = outcome === 'failed' ? findings[0] : undefined;
  return {
    rule,
    operation,
    outcome,
    message,
    ...rest,
    ...(first ? { evidence: leanEvidence(first.evidence), reproduction: first.reproduce } : {}),
    findings: findings.map(withoutEvidence),
  };
}

/**
 * A kept finding without its evidence (the result holds its first finding's): where, what, the status, how to
 * reproduce.
 */
function withoutEvidence(finding: Finding): object {
  const { evidence, rule: _rule, operation: _operation, ...rest } = finding;
  return { ...rest, status: evidence.response?.status ?? evidence.failure?.code };
}

/**
 * Evidence with each body once: the request's text (what was sent), the response's JSON when it parsed, else its text.
 */
function leanEvidence(evidence: Finding['evidence']): object {
  const { request, response, failure } = evidence;
  return {
    request: leanRequest(request),
    ...(response ? { response: leanResponse(response) } : {}),
    ...(failure ? { failure } : {}),
  };
}

function leanRequest(request: RecordedRequest): object {
  const { json: _json, ...rest } = request;
  return rest;
}

function leanResponse(response: RecordedResponse): object {
  const { text, json, ...rest } = response;
  return json === undefined ? { ...rest, text } : { ...rest, json };
}
