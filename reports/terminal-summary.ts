import type { RuleResult } from '../evidence/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { causesOf, type Cause } from './causes.ts';
import { createdWords } from './created-words.ts';
import { operationName } from './operation-name.ts';
import { ruleCatalogue } from './rule-catalogue.ts';
import { ABSENT_BASELINE, verdictWords } from './verdict-words.ts';
import { renderMinimalExample } from '../evidence/minimal-example.ts';
import { renderSequenceExample } from '../evidence/sequence-example.ts';
import { painted, PLAIN_STYLE, wrap, type Paint, type TerminalStyle } from './terminal-style.ts';

const MAX_OPERATIONS_NAMED = 3;
const MAX_VERBOSE_MESSAGE = 300;
const MAX_SKIPPED_NAMED = 6;

/**
 * Renders the summary printed at the end of a run: failures first, one short line per cause (worst first) wrapped to
 * the terminal's width, green rules folded into a count, then the verdict; with `verbose`, every verdict as well.
 */
export function terminalSummary(report: BaselinedRunReport, style: TerminalStyle = PLAIN_STYLE): string {
  const paint = (p: Paint, text: string): string => painted(style.color, p, text);
  const causes = causesOf(report, ruleCatalogue);
  const lines: string[] = [''];
  if (style.verbose) lines.push(...verdictLines(report, style.columns, paint), '');
  if (causes.length > 0) {
    const newCount = causes.filter((c) => !c.known).length;
    lines.push(
      paint(
        'bold',
        `Failures: ${causes.length} ` +
          `cause(s)${report.baseline ? ` (${newCount} new, ${causes.length - newCount} known)` : ''}, worst ` +
          'first',
      ),
    );
    for (const cause of causes) lines.push(...causeLines(cause, style, paint));
    const rules = [...new Set(causes.map((c) => c.rule))];
    lines.push(
      ...wrap(
        "  Evidence in report.html; a rule's contract: npx conformance rules ID. Replay the failing rules:",
        style.columns,
        2,
      ).map((l) => paint('dim', l)),
    );
    // The failing rules replace the run's own selection, which holds them all.
    lines.push(`  ${report.replay.replace(/ --rules \S+/g, '')} --rules ${rules.join(',')}`);
    lines.push('');
  }
  lines.push(...foldedLines(report, style.columns, paint));
  for (const error of report.errors)
    lines.push(...wrap(`  ! harness error: ${error}`, style.columns, 4).map((l) => paint('yellow', l)));
  if (report.gate) lines.push(...wrap(`  ! ${report.gate}`, style.columns, 4).map((l) => paint('red', l)));
  lines.push(...baselineLines(report, style.columns));
  lines.push('', verdictLine(report, paint));
  if (report.created.length > 0)
    lines.push(
      ...wrap(
        `On the target: ${createdWords(report.created)}, listed in findings.json under "created".`,
        style.columns,
        2,
      ),
    );
  return lines.join('\n');
}

function causeLines(cause: Cause, style: TerminalStyle, paint: (p: Paint, text: string) => string): string[] {
  const mark = cause.known ? '✗ (known)' : '✗';
  const head = `  ${mark} ${cause.rule}`;
  const names = cause.operations.map((o) => o.operationId ?? o.operation);
  const where =
    names.length <= MAX_OPERATIONS_NAMED
      ? names.join(', ')
      : `${names.slice(0, MAX_OPERATIONS_NAMED).join(', ')} +${names.length - MAX_OPERATIONS_NAMED} more`;
  const count =
    `${cause.operations.length} operation${cause.operations.length === 1 ? '' : 's'}, ${cause.examples} ` +
    `example${cause.examples === 1 ? '' : 's'}`;
  const lines = wrap(`${head}: ${cause.summary}. ${count} (${where}).`, style.columns, 6);
  const colour: Paint = cause.known ? 'yellow' : 'red';
  lines[0] = `${paint(colour, `  ${mark}`)} ${paint('bold', cause.rule)}${lines[0]!.slice(head.length)}`;
  if (cause.minimal)
    for (const line of renderMinimalExample(cause.minimal)) lines.push(...wrap(`      ${line}`, style.columns, 8));
  if (cause.sequence)
    for (const line of renderSequenceExample(cause.sequence, false))
      lines.push(...wrap(`      ${line}`, style.columns, 8));
  return lines;
}

/** Green rules as one count; skipped rules by reason. */
function foldedLines(report: BaselinedRunReport, columns: number, paint: (p: Paint, text: string) => string): string[] {
  const byRule = new Map<string, RuleResult[]>();
  for (const result of report.results) byRule.set(result.rule, [...(byRule.get(result.rule) ?? []), result]);
  const groups = [...byRule.values()];
  const green = groups.filter(
    (rs) => rs.some((r) => r.outcome === 'passed') && rs.every((r) => r.outcome !== 'failed'),
  );
  const passed = green.reduce((n, rs) => n + rs.filter((r) => r.outcome === 'passed').length, 0);
  const lines =
    green.length === 0
      ? []
      : wrap(
          `✓ ${green.length} rule(s) passed on every operation they judged (${passed} rule × operation verdicts)`,
          columns,
          2,
        ).map((l) => paint('green', l));
  const notJudged = report.results.filter((r) => r.outcome === 'skipped' && r.skipKind !== 'by-choice');
  if (notJudged.length > 0) {
    lines.push(
      ...wrap(
        `? ${notJudged.length} rule × operation verdict(s) could not be judged (not passed; ` +
          '--require-judged fails on them):',
        columns,
        2,
      ).map((l) => paint('yellow', l)),
    );
    for (const [reason, names] of byReason(notJudged))
      lines.push(...wrap(`    ${reason}: ${named(names)}`, columns, 6).map((l) => paint('yellow', l)));
  }
  const chosen = report.results.filter((r) => r.outcome === 'skipped' && r.skipKind === 'by-choice');
  if (chosen.length > 0) {
    lines.push(...wrap(`- ${chosen.length} rule × operation verdict(s) skipped by your choice:`, columns, 2));
    for (const [reason, names] of byReason(chosen)) lines.push(...wrap(`    ${reason}: ${named(names)}`, columns, 6));
  }
  return lines;
}

/** Results grouped by their message, each as `rule on operation`. */
function byReason(results: readonly RuleResult[]): Map<string, string[]> {
  const reasons = new Map<string, string[]>();
  for (const r of results)
    for (const reason of r.skipReasons ?? [r.message])
      reasons.set(reason, [...(reasons.get(reason) ?? []), `${r.rule} on ${r.operationId ?? r.operation}`]);
  return reasons;
}

const named = (names: readonly string[]): string =>
  names.length <= MAX_SKIPPED_NAMED
    ? names.join(', ')
    : `${names.slice(0, MAX_SKIPPED_NAMED).join(', ')} +${names.length - MAX_SKIPPED_NAMED} more`;

/**
 * Every verdict, with its message cut at MAX_VERBOSE_MESSAGE characters (with `--verbose`; findings.json holds them
 * whole).
 */
function verdictLines(
  report: BaselinedRunReport,
  columns: number,
  paint: (p: Paint, text: string) => string,
): string[] {
  const known = new Set(report.baseline?.known.map((e) => `${e.rule}\u0000${e.operation}`));
  const mark = { passed: paint('green', '✓'), failed: paint('red', '✗'), skipped: '-' } as const;
  const lines = ['Every verdict (rule × operation):'];
  for (const result of report.results) {
    const tag = result.outcome === 'failed' && known.has(`${result.rule}\u0000${result.operation}`) ? ' (known)' : '';
    const message =
      result.message.length > MAX_VERBOSE_MESSAGE
        ? `${result.message.slice(0, MAX_VERBOSE_MESSAGE - 1)}…`
        : result.message;
    const wrapped = wrap(`  - ${result.rule} on ${operationName(result)}${tag}: ${message}`, columns, 6);
    wrapped[0] = `  ${mark[result.outcome]}${wrapped[0]!.slice(3)}`;
    lines.push(...wrapped);
  }
  return lines;
}

function verdictLine(report: BaselinedRunReport, paint: (p: Paint, text: string) => string): string {
  const { stats } = report;
  const verdict = verdictWords(report);
  const colour: Paint = report.outcome === 'passed' ? 'green' : report.outcome === 'failed' ? 'red' : 'yellow';
  return (
    `${paint(colour, paint('bold', verdict))}: ${stats.failed} failed, ${stats.passed} passed, ` +
    `${stats.skipped} skipped (${stats.skippedByChoice} by choice, ${stats.notJudged} not judged) (rule × ` +
    `operation); ${stats.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s; ` +
    `seed ${report.seed}`
  );
}

function baselineLines(report: BaselinedRunReport, columns: number): string[] {
  const b = report.baseline;
  if (!b) return [];
  const named = (e: { rule: string; operation: string; operationId?: string }): string =>
    `${e.rule} on ${operationName(e)}`;
  return [
    '',
    ...(b.absent ? wrap(`Baseline ${b.file}: ${ABSENT_BASELINE}`, columns, 2) : []),
    `Baseline ${b.file}: ${b.known.length} known failure(s), ${b.new.length} new, ${b.expired.length} ` +
      `expired, ${b.unexpectedPasses.length} unexpected pass(es).`,
    ...b.new.flatMap((e) => wrap(`  new failure: ${named(e)}`, columns, 4)),
    ...b.expired.flatMap((e) =>
      wrap(`  expired on ${e.expires}: ${named(e)} (${e.now} now): fix it, or renew or remove the entry`, columns, 4),
    ),
    ...b.unexpectedPasses.flatMap((e) => wrap(`  passes now, remove the entry: ${named(e)}`, columns, 4)),
  ];
}
