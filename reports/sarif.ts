import { jsonText } from '../core/json-text.ts';
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import type { RuleResult } from '../evidence/finding.ts';
import { renderMinimalExample } from '../evidence/minimal-example.ts';
import type { SourceLocation } from '../spec/operation-locations.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { operationName } from './operation-name.ts';
import { type RuleCatalogue, ruleCatalogue } from './rule-catalogue.ts';
import { failuresWorstFirst } from './worst-first.ts';

/** The published JSON Schema of SARIF 2.1.0, which GitHub's code scanning reads. */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** The base of every artifact URI: the root of the checkout the run was made in, as GitHub's code scanning names it. */
export const SRCROOT = '%SRCROOT%';

/** The key of the fingerprint that makes one rule's failure on one operation the same alert from run to run. */
export const FINGERPRINT_KEY = 'ruleOperation/v1';

/**
 * Renders a run as SARIF 2.1.0 (`results.sarif`): one result per failed rule × operation, worst first, located at the
 * operation in its spec file (a relative URI under %SRCROOT%, when the file is the checkout's), with the rule's title,
 * contract sentence and probe from the rule table.
 */
export function sarifLog(
  report: BaselinedRunReport,
  locations: ReadonlyMap<string, SourceLocation>,
  catalogue: RuleCatalogue = ruleCatalogue,
): string {
  const failed = failuresWorstFirst(report, catalogue);
  const ruleIds = [...new Set(failed.map((r) => r.rule))];
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const notifications = [
    ...(report.interrupted
      ? [`the run was interrupted by ${report.interrupted} before it finished: rules left without evidence are skipped`]
      : []),
    ...report.errors,
  ];
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'contract-conformance',
            version: TOOL_VERSION,
            semanticVersion: TOOL_VERSION,
            rules: ruleIds.map((id) => ruleDescriptor(id, catalogue)),
          },
        },
        invocations: [
          {
            executionSuccessful: report.outcome !== 'error' && report.outcome !== 'interrupted',
            startTimeUtc: report.startedAt,
            commandLine: report.replay,
            ...(report.interrupted ? { exitSignalName: report.interrupted } : {}),
            ...(notifications.length > 0
              ? {
                  toolExecutionNotifications: notifications.map((e) => ({
                    level: 'error' as const,
                    message: { text: e },
                  })),
                }
              : {}),
          },
        ],
        results: failed.map((result) => {
          const baselineState = !report.baseline ? undefined : known.has(`${result.rule}\u0000${result.operation}`);
          return sarifResult(result, ruleIds.indexOf(result.rule), locations.get(result.operation), baselineState);
        }),
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return `${jsonText(log, 2)}\n`;
}

function ruleDescriptor(id: string, catalogue: RuleCatalogue): ReportingDescriptor {
  const info = catalogue(id);
  if (!info) return { id, shortDescription: { text: id } };
  const help = `${info.sentence}\n\nHow it is probed: ${info.probedBy}\n\nCatalogue: ${info.doc}`;
  return {
    id,
    name: info.title,
    shortDescription: { text: info.title },
    fullDescription: { text: info.sentence },
    help: {
      text: help,
      markdown: `> ${info.sentence}\n\n**How it is probed:** ${info.probedBy}\n\nSee \`${info.doc}\`.`,
    },
    defaultConfiguration: { level: 'error' },
    properties: { basis: info.basis, tags: ['api-contract', info.basis] },
  };
}

function sarifResult(
  result: RuleResult,
  ruleIndex: number,
  at: SourceLocation | undefined,
  known: boolean | undefined,
): Result {
  const finding = result.findings[0];
  const minimal = result.findings.find((f) => f.minimal)?.minimal;
  const lines = [
    `${operationName(result)}: ${result.message}`,
    ...(minimal ? renderMinimalExample(minimal) : []),
    ...(finding ? [`Reproduce (seed ${finding.reproduce.seed}): ${finding.reproduce.curl}`] : []),
  ];
  return {
    ruleId: result.rule,
    ruleIndex,
    level: 'error',
    message: { text: lines.join('\n') },
    locations: [location(result, at)],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(result) },
    ...(known === undefined ? {} : { baselineState: known ? ('unchanged' as const) : ('new' as const) }),
    properties: {
      operation: result.operation,
      violations: result.violations,
      checks: result.checks,
      ...(finding ? { seed: finding.reproduce.seed, replay: finding.reproduce.command } : {}),
    },
  };
}

function location(result: RuleResult, at: SourceLocation | undefined): Location {
  const logical = [
    { name: result.operationId ?? result.operation, fullyQualifiedName: result.operation, kind: 'function' },
  ];
  // Code scanning places a result in the repository by a relative URI under %SRCROOT%: a spec outside the checkout
  // (the installed package's) is no file of it, so such a result is located by its operation alone.
  if (!at || isAbsolute(at.file)) return { logicalLocations: logical };
  return {
    physicalLocation: {
      artifactLocation: { uri: at.file, uriBaseId: SRCROOT },
      region: { startLine: at.line, startColumn: at.column },
    },
    logicalLocations: logical,
  };
}

/** Rule id and operation key, hashed: the identity of a failure, whatever the run's seed, messages or counts. */
function fingerprint(result: RuleResult): string {
  return createHash('sha256').update(`${result.rule}\u0000${result.operation}`).digest('hex');
}
