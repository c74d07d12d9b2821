import { API_LIST } from '../apis/index.ts';
import { coverageMarkdown } from './coverage-markdown.ts';
import type { RuleResult } from '../evidence/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { causesOf, type Cause } from './causes.ts';
import { createdNote, createdWords } from './created-words.ts';
import { renderMinimalExample } from '../evidence/minimal-example.ts';
import { renderSequenceExample } from '../evidence/sequence-example.ts';
import { ABSENT_BASELINE, verdictWords } from './verdict-words.ts';
import { operationName } from './operation-name.ts';
import { ruleCatalogue } from './rule-catalogue.ts';
import { failuresWorstFirst } from './worst-first.ts';

const DEFAULT_ROWS = 100;
const MAX_MESSAGE = 400;
const ICON = { passed: '✅', failed: '❌', interrupted: '⏹️', error: '⚠️' } as const;

/** What a job summary adds to the summary: links (to the reports' artifact), and fewer rows to fit GitHub's limit. */
export interface SummaryOptions {
  /** Markdown lines said right after the outcome. */
  readonly links?: readonly string[];
  /** At most this many causes, failed rules and reproductions (100 unless told). */
  readonly maxRows?: number;
}

/** Renders the Markdown summary of a run, fit for a CI job summary: the outcome, then failures worst first. */
export function markdownSummary(report: BaselinedRunReport, options: SummaryOptions = {}): string {
  const { stats } = report;
  const maxRows = options.maxRows ?? DEFAULT_ROWS;
  const failed = failuresWorstFirst(report, ruleCatalogue);
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const lines = [
    `## Conformance: ${ICON[report.outcome]} ${verdictWords(report)}`,
    '',
    `**${stats.failed} failed**, ${stats.passed} passed, ${stats.skipped} skipped (${stats.notJudged} not ` +
      `judged, ${stats.skippedByChoice} by choice) (rule × operation); ${stats.requests} requests in ` +
      `${(report.durationMs / 1000).toFixed(1)} s; seed \`${report.seed}\`.`,
    '',
    `Target: ${target(report)}. Replay: \`${inline(report.replay)}\``,
    '',
    ...(options.links && options.links.length > 0 ? [...options.links, ''] : []),
    ...baselineSection(report, maxRows),
    ...(report.errors.length > 0 ? ['### Harness errors', '', ...report.errors.map((e) => `- ${cell(e)}`), ''] : []),
    ...causesSection(causesOf(report, ruleCatalogue), maxRows),
    ...(failed.length > 0
      ? [
          '### Failed rules',
          '',
          `| Rule | Operation | Message |${report.baseline ? ' Baseline |' : ''}`,
          `|---|---|---|${report.baseline ? '---|' : ''}`,
          ...failed
            .slice(0, maxRows)
            .map(
              (r) =>
                `| \`${inline(r.rule)}\` | \`${inline(operationName(r))}\` | ${cell(r.message)} ` +
                `|${report.baseline ? (known.has(`${r.rule}\u0000${r.operation}`) ? ' known |' : ' **new** |') : ''}`,
            ),
          ...(failed.length > maxRows
            ? [`| … | ${failed.length - maxRows} more in findings.json | |${report.baseline ? ' |' : ''}`]
            : []),
          '',
          '#### Reproduce',
          '',
          ...failed.slice(0, maxRows).flatMap(reproduction),
        ]
      : []),
    ...skippedSection(report),
    ...coverageMarkdown(report.coverage ?? []),
    ...createdSection(report, maxRows),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

function causesSection(causes: readonly Cause[], maxRows: number): string[] {
  if (causes.length === 0) return [];
  return [
    '### Causes of failure, worst first',
    '',
    ...causes.slice(0, maxRows).flatMap((c) => {
      const names = c.operations.map((o) => `\`${inline(o.operationId ?? o.operation)}\``).join(', ');
      const basis = c.info ? `, ${c.info.basis}` : '';
      return [
        `- **\`${inline(c.rule)}\`** ` +
          `(${c.severity === 'secret' ? 'secret leaked' : c.severity}${basis}${c.known ? ', known' : ''}): ` +
          `${cell(c.summary.replace(/`/g, ''))}. ${c.operations.length} operation(s), ${c.examples} ` +
          `example(s): ${names}.`,
        ...(c.info ? [`  > ${cell(c.info.sentence)} (\`${inline(c.info.doc)}\`)`] : []),
        ...(c.minimal ? renderMinimalExample(c.minimal).map((line) => `  - ${cell(line)}`) : []),
        ...(c.sequence ? renderSequenceExample(c.sequence).map((line) => `  - ${cell(line.trim())}`) : []),
      ];
    }),
    '',
  ];
}

function target(report: BaselinedRunReport): string {
  const { reference } = report.target;
  const parts = API_LIST.map(({ name }) => {
    const target = report.target[name];
    return target ? `${name} \`${inline(target.baseUrl)}\`` : `${name} not under test`;
  });
  const faults =
    reference && reference.faults.length > 0
      ? `, faults ${reference.faults.map((f) => `\`${inline(f)}\``).join(', ')}`
      : '';
  return `${parts.join(', ')}${reference ? ` (embedded reference target${faults})` : ''}`;
}

function baselineSection(report: BaselinedRunReport, maxRows: number): string[] {
  const b = report.baseline;
  if (!b) return [];
  const list = (title: string, items: readonly string[]): string[] =>
    items.length === 0 ? [] : [`**${title}**`, '', ...items.slice(0, maxRows).map((i) => `- ${i}`), ''];
  const at = (e: { rule: string; operation: string }): string => `\`${inline(e.rule)}\` on \`${inline(e.operation)}\``;
  return [
    `### Baseline \`${inline(b.file)}\``,
    '',
    ...(b.absent ? [`Not found: ${ABSENT_BASELINE}`, ''] : []),
    `${b.known.length} known failure(s) accepted, ${b.new.length} new failure(s), ${b.expired.length} ` +
      `expired entr${b.expired.length === 1 ? 'y' : 'ies'}, ${b.unexpectedPasses.length} unexpected pass(es).`,
    '',
    ...list('New failures (not in the baseline)', b.new.map(at)),
    ...list(
      'Expired entries (fix, or renew or remove the entry)',
      b.expired.map((e) => `${at(e)}: expired ${e.expires}, ${e.now} now`),
    ),
    ...list(
      'Unexpected passes (remove these entries)',
      b.unexpectedPasses.map((e) => `${at(e)}: ${cell(e.reason)}`),
    ),
  ];
}

function reproduction(result: RuleResult): string[] {
  const reproduce = result.findings[0]?.reproduce;
  if (!reproduce) return [];
  const body = `${reproduce.curl}\n# seed ${reproduce.seed}; replay: ${reproduce.command}`;
  const fence = '`'.repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [
    `<details><summary>${cell(result.rule)} on ${cell(operationName(result))}</summary>`,
    '',
    `${fence}sh`,
    body,
    fence,
    '',
    '</details>',
    '',
  ];
}

/** What was not judged and why (no pass: the rule gathered no evidence), apart from what the settings left out. */
function skippedSection(report: BaselinedRunReport): string[] {
  const skipped = report.results.filter((r) => r.outcome === 'skipped');
  const table = (title: string, results: readonly RuleResult[]): string[] => {
    const reasons = new Map<string, number>();
    for (const r of results) reasons.set(r.message, (reasons.get(r.message) ?? 0) + 1);
    if (reasons.size === 0) return [];
    return [
      `**${title}**`,
      '',
      '| Reason | Rule × operation |',
      '|---|---|',
      ...[...reasons].map(([reason, n]) => `| ${cell(reason)} | ${n} |`),
      '',
    ];
  };
  const notJudged = table(
    'Not judged (no evidence: not a pass)',
    skipped.filter((r) => r.skipKind !== 'by-choice'),
  );
  const byChoice = table(
    'Left out by the settings',
    skipped.filter((r) => r.skipKind === 'by-choice'),
  );
  if (notJudged.length === 0 && byChoice.length === 0 && report.skippedGroups.length === 0) return [];
  return [
    '### Skipped',
    '',
    ...notJudged,
    ...byChoice,
    ...report.skippedGroups.map((g) => `- probe group \`${inline(g.suite)}/${inline(g.group)}\`: ${cell(g.reason)}`),
    '',
  ];
}

function createdSection(report: BaselinedRunReport, maxRows: number): string[] {
  if (report.created.length === 0) return [];
  return [
    '### Created on the target',
    '',
    `${createdWords(report.created)}.`,
    '',
    '<details><summary>Resources</summary>',
    '',
    '| Kind | Id | Operation | Note |',
    '|---|---|---|---|',
    ...report.created
      .slice(0, maxRows)
      .map((c) => `| ${cell(c.kind)} | \`${inline(c.id)}\` | ${cell(c.operation)} | ${cell(createdNote(c))} |`),
    ...(report.created.length > maxRows
      ? [`| … | ${report.created.length - maxRows} more in findings.json | | |`]
      : []),
    '',
    '</details>',
    '',
  ];
}

/** Text for a table cell or list item: one line, Markdown and HTML inert. */
function cell(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ');
  const short = line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
  return short
    .replace(/[\\`*_~[\]#!]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '&#124;');
}

/** Text for a code span: one line, no backticks, no table pipes. */
function inline(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/`/g, "'")
    .replace(/\|/g, '¦');
}
