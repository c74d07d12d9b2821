import { jsonText } from '../core/json-text.ts';
import type { Finding, Reproduction, RuleResult } from '../evidence/finding.ts';
import type { RunReport } from '../run/run-report-types.ts';
import type { RuleCatalogue, RuleInfo } from './rule-catalogue.ts';
import { kindOfEvidence, normalisedPath } from '../evidence/cause-key.ts';
import { SEVERITY_ORDER, type Severity } from '../rule-model/rule.ts';
import type { MinimalExample } from '../evidence/minimal-example.ts';
import type { SequenceExample } from '../evidence/sequence-example.ts';

export { normalisedPath };

/** Examples with full evidence that a cause keeps, one per operation first. */
export const EVIDENCE_PER_CAUSE = 3;

/**
 * One operation a cause shows up on: how many of its violations the cause accounts for, and whether the baseline
 * accepts it.
 */
export interface CauseOperation {
  readonly operation: string;
  readonly operationId?: string;
  readonly examples: number;
  readonly known: boolean;
  /** How to reproduce the cause's first finding on this operation. */
  readonly reproduce: Reproduction;
}

/**
 * Violations of one rule at one place of the body with one kind of wrong value, on every operation where they occur.
 */
export interface Cause {
  readonly rule: string;
  /** The rule's data from the table; absent for an id the table does not hold. */
  readonly info?: RuleInfo;
  readonly severity: Severity;
  /** Where, normalised: each array index as `*`, `` for the response as a whole, `header:name`. */
  readonly path: string;
  /** The kind of wrong value: `uuid v1`, `absent`, `HTTP 2xx`, `string`, `timeout`, ... */
  readonly kind: string;
  /** One line: where, what was expected, what kind of value came. */
  readonly summary: string;
  readonly operations: readonly CauseOperation[];
  /** Violations the cause accounts for, over every operation (kept findings, plus its share of those not kept). */
  readonly examples: number;
  /** Every operation's failure is accepted by the baseline. */
  readonly known: boolean;
  /** At most EVIDENCE_PER_CAUSE findings with their evidence, distinct operations first. */
  readonly evidence: readonly Finding[];
  /** What shrinking found for the cause's first shrunk finding: the minimal example and what makes the difference. */
  readonly minimal?: MinimalExample;
  /** The shortest failing sequence of the cause's first finding that has one: its steps and the step that disagreed. */
  readonly sequence?: SequenceExample;
}

interface Group {
  readonly rule: string;
  readonly path: string;
  readonly kind: string;
  readonly findings: Finding[];
  readonly counts: Map<RuleResult, number>;
}

/**
 * The causes of a run's failures: findings that share a rule, a normalised path and a kind of wrong value collapse into
 * one cause (a path under another of the same rule joins it), listed worst first (a leaked secret, accepted
 * credentials, server errors and missing answers, then the rest; new before known; then by operations and examples).
 */
export function causesOf(
  report: RunReport & {
    readonly baseline?: { readonly known: readonly { readonly rule: string; readonly operation: string }[] };
  },
  catalogue: RuleCatalogue,
): Cause[] {
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const groups = new Map<string, Group>();
  for (const result of report.results) {
    // A failed verdict keeps at least one finding.
    if (result.outcome !== 'failed' || result.findings.length === 0) continue;
    const keyed = result.findings.map((finding) => ({
      finding,
      path: normalisedPath(finding.path),
      kind: kindOf(finding),
    }));
    const shares = apportion(result.violations, keyed.length);
    keyed.forEach(({ finding, path, kind }, index) => {
      const key = `${result.rule}\u0000${path}\u0000${kind}`;
      const group: Group = groups.get(key) ?? { rule: result.rule, path, kind, findings: [], counts: new Map() };
      groups.set(key, group);
      group.findings.push(finding);
      group.counts.set(result, (group.counts.get(result) ?? 0) + shares[index]!);
    });
  }
  const merged = mergeNested([...groups.values()]);
  const causes = merged.map((group) => toCause(group, catalogue, known));
  const ruleOrder = [...new Set(report.results.map((r) => r.rule))];
  return causes.sort(
    (a, b) =>
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
      Number(a.known) - Number(b.known) ||
      b.operations.length - a.operations.length ||
      b.examples - a.examples ||
      ruleOrder.indexOf(a.rule) - ruleOrder.indexOf(b.rule) ||
      a.path.localeCompare(b.path),
  );
}

/**
 * The kind of wrong value a finding saw: the transport failure, the status class, a uuid's version, a secret, a JSON
 * type, or `absent`.
 */
export function kindOf(finding: Finding): string {
  const { failure, response } = finding.evidence;
  return kindOfEvidence({
    path: finding.path,
    actual: finding.actual,
    ...(failure ? { failure: failure.code } : {}),
    ...(response ? { status: response.status } : {}),
  });
}

/**
 * Splits a result's `total` violations over its `kept` findings: one each, the ones not kept shared out evenly in turn.
 */
function apportion(total: number, kept: number): number[] {
  const shares = Array.from({ length: kept }, () => 1);
  let rest = Math.max(0, total - kept);
  for (let index = 0; rest > 0; index = (index + 1) % kept, rest -= 1) shares[index]! += 1;
  return shares;
}

/**
 * Joins a group into another of the same rule whose path holds its path (`/a/credentials/password` into
 * `/a/credentials`).
 */
function mergeNested(groups: readonly Group[]): Group[] {
  const sorted = [...groups].sort((a, b) => a.path.length - b.path.length);
  const kept: Group[] = [];
  for (const group of sorted) {
    const parent = kept.find(
      (k) =>
        k.rule === group.rule && k.path !== '' && !k.path.startsWith('header:') && group.path.startsWith(`${k.path}/`),
    );
    if (!parent) {
      kept.push({ ...group, findings: [...group.findings], counts: new Map(group.counts) });
      continue;
    }
    parent.findings.push(...group.findings);
    for (const [result, n] of group.counts) parent.counts.set(result, (parent.counts.get(result) ?? 0) + n);
  }
  return kept;
}

function toCause(group: Group, catalogue: RuleCatalogue, known: ReadonlySet<string>): Cause {
  const operations = [...group.counts].map(([result, examples]) => ({
    operation: result.operation,
    ...(result.operationId ? { operationId: result.operationId } : {}),
    examples,
    known: known.has(`${result.rule}\u0000${result.operation}`),
    reproduce: group.findings.find((f) => f.operation === result.operation)!.reproduce,
  }));
  const info = catalogue(group.rule);
  const minimal =
    group.findings.find((f) => f.minimal?.outcome === 'shrunk')?.minimal ??
    group.findings.find((f) => f.minimal)?.minimal;
  const sequence =
    group.findings.find((f) => f.sequence?.outcome === 'shrunk')?.sequence ??
    group.findings.find((f) => f.sequence)?.sequence;
  return {
    rule: group.rule,
    ...(info ? { info } : {}),
    severity: severityOf(group, info),
    path: group.path,
    kind: group.kind,
    summary: summaryOf(group),
    operations,
    examples: operations.reduce((n, o) => n + o.examples, 0),
    known: operations.every((o) => o.known),
    evidence: boundedEvidence(group.findings),
    ...(minimal ? { minimal } : {}),
    ...(sequence ? { sequence } : {}),
  };
}

/** The rule's own severity; else a violation seen on a 5xx or on no answer is a server's, the rest the contract's. */
function severityOf(group: Group, info: RuleInfo | undefined): Severity {
  if (info?.severity) return info.severity;
  const serverSide = group.findings.some(
    (f) => f.evidence.failure !== undefined || (f.evidence.response?.status ?? 0) >= 500,
  );
  return serverSide ? 'server' : 'contract';
}

function summaryOf(group: Group): string {
  const first = group.findings[0]!;
  const where = group.path === '' ? 'the response' : `\`${group.path}\``;
  const expectations = new Set(group.findings.map((f) => f.expected)).size;
  const others = expectations > 1 ? ` (and ${expectations - 1} similar expectation${expectations > 2 ? 's' : ''})` : '';
  return `${where}: expected ${first.expected}${others}, got ${kindPhrase(group.kind, first)}`;
}

function kindPhrase(kind: string, first: Finding): string {
  const uuid = /^uuid v(.)$/.exec(kind);
  if (uuid) return `a version-${uuid[1]} uuid`;
  if (kind === 'absent') return 'nothing (absent)';
  if (kind === 'a secret') return 'a secret value (redacted here)';
  if (kind.startsWith('HTTP ')) return typeof first.actual === 'number' ? `HTTP ${first.actual}` : kind;
  if (first.evidence.failure) return `no answer (${kind})`;
  const text = jsonText(first.actual) ?? String(first.actual);
  return (
    `${kind === 'object' || kind === 'array' ? `an ${kind}` : `a ${kind}`} such ` +
    `as ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`
  );
}

function boundedEvidence(findings: readonly Finding[]): Finding[] {
  const byOperation = new Map<string, Finding>();
  for (const finding of findings) if (!byOperation.has(finding.operation)) byOperation.set(finding.operation, finding);
  const distinct = [...byOperation.values()];
  const rest = findings.filter((f) => !distinct.includes(f));
  return [...distinct, ...rest].slice(0, EVIDENCE_PER_CAUSE);
}
