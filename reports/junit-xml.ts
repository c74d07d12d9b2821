import { renderFinding, type Finding, type RuleResult } from '../evidence/finding.ts';
import { renderMinimalExample } from '../evidence/minimal-example.ts';
import { renderSequenceExample } from '../evidence/sequence-example.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import { operationName } from './operation-name.ts';

/** What a junit consumer counts of a group of test cases. */
interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** One `<testcase>`, before it is written. */
interface Case {
  readonly classname: string;
  readonly name: string;
  readonly failure?: { readonly message: string; readonly type: string; readonly details: string };
  readonly error?: { readonly message: string; readonly type: string };
  readonly skipped?: string;
}

/**
 * `junit.xml` of a run, for CI systems: one `<testsuite>` per operation, one `<testcase>` per rule on it (named
 * `operationId (METHOD /path) > rule`). A failure carries its violations and how to reproduce the first; a skip its
 * reason (a failure the baseline accepts is a skip that says so); the harness's errors, an interrupt and a failed
 * `--require-judged` gate are error cases of a `harness` suite.
 */
export function junitXml(report: BaselinedRunReport): string {
  const known = new Map(
    (report.baseline?.known ?? []).map((entry) => [`${entry.rule} ${entry.operation}`, entry.reason]),
  );
  const suites = new Map<string, Case[]>();
  for (const result of report.results) {
    const name = operationName(result);
    const cases = suites.get(name) ?? [];
    if (cases.length === 0) suites.set(name, cases);
    cases.push(caseOf(result, name, known.get(`${result.rule} ${result.operation}`)));
  }
  const harness = harnessCases(report);
  if (harness.length > 0) suites.set('harness', harness);
  const total = count([...suites.values()].flat());
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" ${attributes(total)} time="${seconds(report.durationMs)}" ` +
      `timestamp="${attr(report.startedAt)}">`,
    ...[...suites].flatMap(([name, cases]) => [
      `  <testsuite name="${attr(name)}" ${attributes(count(cases))}>`,
      ...cases.flatMap(testcase),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}

function caseOf(result: RuleResult, operation: string, knownReason: string | undefined): Case {
  const base = {
    classname: `conformance.${result.operationId ?? result.operation}`,
    name: `${operation} > ${result.rule}`,
  };
  if (result.outcome === 'skipped') return { ...base, skipped: result.message };
  if (result.outcome === 'passed') return base;
  if (knownReason !== undefined)
    return { ...base, skipped: `known failure, accepted by the baseline: ${knownReason}. ${result.message}` };
  return {
    ...base,
    failure: {
      message: `${result.rule} on ${result.operation}: ${result.message}`,
      type: 'ContractViolation',
      details: failureDetails(result),
    },
  };
}

/** The violations a failure kept, with the request and answer of each, and how to reproduce the first. */
function failureDetails(result: RuleResult): string {
  const lines = [
    `${result.violations} violation(s) in ${result.checks} check(s) of ${result.rule} on ${operationName(result)}.`,
  ];
  for (const finding of result.findings) lines.push('', `- ${renderFinding(finding)}`, ...exchangeLines(finding));
  const first = result.findings[0];
  if (first?.minimal) lines.push('', ...renderMinimalExample(first.minimal));
  const sequence = result.findings.find((f) => f.sequence)?.sequence;
  if (sequence) lines.push('', ...renderSequenceExample(sequence));
  if (first)
    lines.push(
      '',
      'Reproduce:',
      first.reproduce.curl,
      `# seed ${first.reproduce.seed}; replay: ${first.reproduce.command}`,
    );
  return lines.join('\n');
}

function exchangeLines({ evidence }: Finding): string[] {
  const answer = evidence.response
    ? `HTTP ${evidence.response.status}`
    : evidence.failure
      ? `no answer: ${evidence.failure.message}`
      : 'no answer';
  return [`  ${evidence.request.method} ${evidence.request.url} -> ${answer}`];
}

function harnessCases(report: BaselinedRunReport): Case[] {
  const harness = (name: string, message: string, type: string): Case => ({
    classname: 'conformance.harness',
    name,
    error: { message, type },
  });
  return [
    ...report.errors.map((error, i) => harness(`error ${i + 1}`, error, 'HarnessError')),
    ...(report.interrupted
      ? [
          harness(
            'interrupted',
            `the run was interrupted by ${report.interrupted}: rules left without evidence are skipped`,
            'Interrupted',
          ),
        ]
      : []),
    ...(report.gate ? [harness('require-judged', report.gate, 'NotJudged')] : []),
  ];
}

function count(cases: readonly Case[]): Counts {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
  };
}

function attributes({ tests, failures, errors, skipped }: Counts): string {
  return `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
}

function testcase(c: Case): string[] {
  const open = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}"`;
  if (c.failure)
    return [
      `${open}>`,
      `      <failure message="${attr(c.failure.message)}" ` +
        `type="${c.failure.type}">${text(c.failure.details)}</failure>`,
      '    </testcase>',
    ];
  if (c.error)
    return [`${open}>`, `      <error message="${attr(c.error.message)}" type="${c.error.type}"/>`, '    </testcase>'];
  if (c.skipped !== undefined) return [`${open}>`, `      <skipped message="${attr(c.skipped)}"/>`, '    </testcase>'];
  return [`${open}></testcase>`];
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Characters XML 1.0 cannot carry at all (most control characters, lone surrogates): a response body may hold them. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function text(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;');
}
