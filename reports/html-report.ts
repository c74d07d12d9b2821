import { jsonText } from '../core/json-text.ts';
import { API_LIST } from '../apis/index.ts';
import type { ApiDescriptor, TargetFields } from '../apis/descriptor.ts';
import type { Finding, Outcome, RuleResult } from '../evidence/finding.ts';
import { renderFinding } from '../evidence/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';
import type { Severity } from '../rule-model/rule.ts';
import { causesOf, type Cause } from './causes.ts';
import { renderMinimalExample, type MinimalExample } from '../evidence/minimal-example.ts';
import {
  atOnceLetter,
  renderSequenceExample,
  sequenceOutcome,
  type SequenceExample,
} from '../evidence/sequence-example.ts';
import type { NeighbourhoodCoverage, SequenceCoverage } from '../evidence/coverage.ts';
import { operationName } from './operation-name.ts';
import { ruleCatalogue } from './rule-catalogue.ts';
import { settingsInWords } from './settings-words.ts';
import { TOOL } from './tool-version.ts';
import { ABSENT_BASELINE, verdictWords } from './verdict-words.ts';
import { createdNote, createdWords } from './created-words.ts';

const MARK: Readonly<Record<Outcome | 'known', string>> = { passed: '✓', failed: '✗', skipped: '–', known: '✗' };
const SEVERITY: Readonly<Record<Severity, string>> = {
  secret: 'secret leaked',
  credentials: 'credentials',
  server: 'server error',
  contract: 'contract',
};

const STYLE = `
body{
  font:14px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;
  margin:0 auto;padding:0 1.5rem 1.5rem;max-width:1400px;
  color:#1f2328;background:#fff
}
[id]{scroll-margin-top:3rem}
h1{font-size:1.5rem;margin:.8rem 0 .4rem}
h2{font-size:1.2rem;margin:1rem 0 .4rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
.at-once{display:flex;gap:.6rem;align-items:flex-start}.at-once>div{flex:1;min-width:0}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #d0d7de;padding:.45rem 0;z-index:1;font-size:13px}
nav a{margin-right:1rem;color:#0969da;text-decoration:none}nav a:hover{text-decoration:underline}
.verdict{display:inline-block;padding:.25rem .8rem;border-radius:6px;color:#fff;font-weight:700;letter-spacing:.03em}
.verdict.passed{background:#1a7f37}.verdict.failed{background:#cf222e}.verdict.error{background:#9a6700}
.verdict.interrupted{background:#57606a}
.target{font-size:15px;margin:.3rem 0}
table{border-collapse:collapse;margin:.4rem 0}
th,td{border:1px solid #d0d7de;padding:.1rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{
  background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.5rem;
  white-space:pre-wrap;word-break:break-all;margin:.3rem 0;max-height:24rem;overflow:auto
}
.matrix td.cell{text-align:center;min-width:2.2rem;font-weight:700;padding:0 .3rem}
.matrix td,.matrix th{line-height:1.15}.matrix td.cell{font-size:13px}.matrix th.rule code{font-size:12px;line-height:1}
.matrix th.op{font-weight:500;font-size:12px;max-width:9rem;word-break:break-all}
.matrix th.rule{white-space:nowrap;padding:0 .5rem}
td.passed{background:#dafbe1;color:#1a7f37}td.failed{background:#ffebe9;color:#cf222e}
td.known{background:#fff8c5;color:#9a6700}
td.skipped{background:#f6f8fa;color:#57606a}td.none{background:#fff;color:#d0d7de}
td.cell a{color:inherit;text-decoration:none;display:block}
details.cause{
  border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;
  padding:.35rem .8rem;margin:.5rem 0
}
details.cause.known{border-left-color:#9a6700}
details.cause>summary{cursor:pointer;list-style-position:outside;margin-left:1rem}
details.cause>summary .line{display:block}
details.cause[open]>summary{margin-bottom:.4rem}
.tag{
  font-size:12px;border-radius:4px;padding:0 .35rem;font-weight:600;
  background:#ffebe9;color:#cf222e;white-space:nowrap
}
.tag.known{background:#fff8c5;color:#9a6700}.tag.secret,.tag.credentials{background:#cf222e;color:#fff}
blockquote{margin:.3rem 0;padding:.1rem .8rem;border-left:3px solid #d0d7de;color:#404850}
.muted{color:#57606a}
dl{display:grid;grid-template-columns:max-content auto;gap:.1rem 1rem;margin:.3rem 0}dt{font-weight:600}dd{margin:0}
dl.settings{grid-template-columns:repeat(3,max-content auto)}
ul.ops{margin:.2rem 0;padding-left:1.2rem}
div.rules{columns:4 18rem;column-gap:1rem}div.rules details{break-inside:avoid}
table.coverage td{white-space:nowrap}table.coverage td:last-child{white-space:normal}
ul.ops details{display:inline}ul.ops summary{display:inline;cursor:pointer;color:#0969da}
ul.errors li{color:#9a6700}
footer{margin-top:1.2rem;border-top:1px solid #d0d7de;padding-top:.5rem;font-size:12px;color:#57606a}
`;

/** Renders the human report of a run: one self-contained HTML page that needs no network and no script. */
export function htmlReport(report: BaselinedRunReport): string {
  const causes = causesOf(report, ruleCatalogue);
  const anchors = causeAnchors(causes);
  const known = new Set(report.baseline?.known.map((e) => key(e)));
  const sections: [string, string, string][] = [
    [
      'failures',
      `Failures (${causes.length} cause${causes.length === 1 ? '' : 's'})`,
      failuresSection(causes, anchors),
    ],
    ...(report.errors.length > 0
      ? [['errors', `Harness errors (${report.errors.length})`, errorsSection(report)] as [string, string, string]]
      : []),
    ...(report.baseline ? [['baseline', 'Baseline', baselineSection(report)] as [string, string, string]] : []),
    ['matrix', 'Rules × operations', matrix(report, anchors, known)],
    ['settings', 'Target and settings', targetSection(report)],
    ['coverage', 'Coverage', coverageSection(report)],
    ['skipped', 'Skipped', skippedSection(report)],
    ['contract', 'Contract statements', contractSection(report)],
    ['created', `Created and changed on the target (${report.created.length})`, createdSection(report)],
  ];
  const tool = `${esc(TOOL.name)} ${esc(TOOL.version)}`;
  const timing = `run started ${esc(report.startedAt)}, took ${seconds(report.durationMs)} s`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Conformance ${esc(verdictWords(report))}: seed ${report.seed}</title>
<style>${STYLE}</style>
</head>
<body>
<nav>${sections.map(([id, title]) => `<a href="#${id}">${esc(title)}</a>`).join('')}</nav>
<h1>Conformance report</h1>
${header(report)}
${sections.map(([id, title, body]) => `<h2 id="${id}">${esc(title)}</h2>\n${body}`).join('\n')}
<footer>${tool}; ${timing}; seed <code>${report.seed}</code>.</footer>
</body>
</html>
`;
}

function header(report: BaselinedRunReport): string {
  const { stats } = report;
  const counts = `${stats.passed} passed, ${stats.skipped} skipped (rule × operation)`;
  const traffic = `${stats.requests} requests (${stats.rateLimited} rate-limited) in ${seconds(report.durationMs)} s`;
  return `<p class="target">${targetWords(report)}</p>
<p><span class="verdict ${report.outcome}" id="verdict">${esc(verdictWords(report))}</span></p>
<p><strong>${stats.failed} failed</strong>, ${counts}; ${traffic}. Replay: <code>${esc(report.replay)}</code></p>`;
}

/** What was tested, in one line: the embedded reference target with its faults and modes, or the APIs' URLs. */
function targetWords(report: BaselinedRunReport): string {
  const { reference } = report.target;
  const urls = API_LIST.map(({ name }) => {
    const target = report.target[name];
    return target ? `${name} API at ${esc(target.baseUrl)}` : `${name} API not under test`;
  }).join(', ');
  if (!reference) return `Tested: ${urls}.`;
  const parts = [
    reference.faults.length > 0 ? `faults ${list(reference.faults)}` : 'no fault',
    ...(reference.modes.length > 0 ? [`modes ${list(reference.modes)}`] : []),
  ];
  return `Tested: the embedded reference target with ${parts.join(' and ')} <span class="muted">(${urls})</span>.`;
}

function causeAnchors(causes: readonly Cause[]): Map<Cause, string> {
  return new Map(causes.map((cause, index) => [cause, `cause-${index + 1}`]));
}

function failuresSection(causes: readonly Cause[], anchors: ReadonlyMap<Cause, string>): string {
  if (causes.length === 0) return '<p class="muted">No rule failed.</p>';
  const order =
    'Worst first: leaked secrets, accepted credentials, server errors, then the rest. Each cause is one rule broken ' +
    'the same way on every operation listed; open it for the contract, the operations and the evidence.';
  return `<p class="muted">${order}</p>
${causes.map((cause) => causeSection(cause, anchors.get(cause)!)).join('\n')}`;
}

function causeSection(cause: Cause, anchor: string): string {
  const { info } = cause;
  const names = cause.operations.map((o) => o.operationId ?? o.operation);
  const count =
    `${cause.operations.length} operation${cause.operations.length === 1 ? '' : 's'}, ${cause.examples} ` +
    `example${cause.examples === 1 ? '' : 's'}`;
  const [shown, ...more] = cause.evidence;
  const nameOf = (finding: Finding): string =>
    operationName(cause.operations.find((o) => o.operation === finding.operation) ?? finding);
  const tags =
    `<span class="tag ${cause.severity}">${SEVERITY[cause.severity]}</span>` +
    (cause.known ? ' <span class="tag known">known</span>' : '');
  const heading = `<code><strong>${esc(cause.rule)}</strong></code> ${tags} ${esc(count)}: ${esc(names.join(', '))}`;
  const lines = [heading, inlineCode(cause.summary)].map((line) => `<span class="line">${line}</span>`).join('');
  const others = more.map((f) => `<li><code>${esc(nameOf(f))}</code>: ${esc(renderFinding(f))}</li>`).join('');
  const attributes = `data-rule="${esc(cause.rule)}" data-severity="${cause.severity}"`;
  return `<details class="cause${cause.known ? ' known' : ''}" ${attributes}>
<summary>${lines}${minimalSummary(cause)}</summary>
<div id="${anchor}">
${info ? contractWords(info, cause.rule) : ''}
${cause.minimal ? minimalSection(cause.minimal) : ''}
${cause.sequence ? sequenceSection(cause.sequence) : ''}
<h3>Operations</h3>
<ul class="ops">${cause.operations.map((o) => operationItem(anchor, cause, o)).join('')}</ul>
${shown ? `<h3>Evidence: ${esc(nameOf(shown))}</h3>\n${evidence(shown)}` : ''}
${more.length > 0 ? `<h3>Other examples</h3><ul class="ops">${others}</ul>` : ''}
</div>
</details>`;
}

/** The sentence of the contract a cause breaks, whether the contract states it, and where to read more. */
function contractWords(info: NonNullable<Cause['info']>, rule: string): string {
  const basis =
    info.basis === 'stated'
      ? 'stated by the contract'
      : 'inferred: the documents are silent, every user would expect it';
  const more = `See <code>${esc(info.doc)}</code> or <code>npx conformance rules ${esc(rule)}</code>`;
  return `<blockquote>${inlineCode(info.sentence)}</blockquote>
<p class="muted">${esc(info.title)}; ${basis}. ${more}.</p>`;
}

/**
 * The lines of a cause's minimal example that fit its folded summary: what makes the difference, and what the failures
 * share.
 */
function minimalSummary(cause: Cause): string {
  if (cause.minimal?.outcome !== 'shrunk') return '';
  return renderMinimalExample(cause.minimal)
    .slice(1)
    .map((line) => `<span class="line">${inlineCode(line)}</span>`)
    .join('');
}

/**
 * The minimal example in full: its words, the smallest failing and the nearest passing request, and how to regenerate
 * it.
 */
function minimalSection(minimal: MinimalExample): string {
  const [first, ...rest] = renderMinimalExample(minimal);
  const words = minimal.outcome === 'shrunk' ? [first ?? ''] : [first ?? '', ...rest];
  const body = (value: unknown): string => esc(jsonText(value, 2) ?? String(value));
  const { failing, passing, replay } = minimal;
  const failingRequest = failing
    ? `<details><summary>Smallest failing request (${esc(String(failing.status))})</summary>` +
      `<pre>${body(failing.body)}</pre><pre class="curl">${esc(failing.curl)}</pre></details>`
    : '';
  const passingRequest = passing
    ? `<details><summary>Nearest passing request (${esc(String(passing.status))})</summary>` +
      `<pre>${body(passing.body)}</pre></details>`
    : '';
  const fastCheck = replay
    ? `<dl><dt>fast-check</dt><dd><code>${esc(replay.property)}</code>, seed <code>${replay.seed}</code>, ` +
      `path <code>${esc(replay.path)}</code></dd></dl>`
    : '';
  return `<h3>Minimal example</h3>
${words.map((line) => `<p>${inlineCode(line)}</p>`).join('\n')}
${failingRequest}
${passingRequest}
${fastCheck}`;
}

/** The shortest failing sequence: its words, then each step with its curl, the disagreeing one marked. */
function sequenceSection(sequence: SequenceExample): string {
  const [how = ''] = renderSequenceExample(sequence);
  const outcome = sequenceOutcome(sequence);
  const steps = sequence.steps
    .map((step, index) => {
      const failing = index + 1 === sequence.failingStep;
      const disagrees = failing ? ' <strong>(disagrees with the model)</strong>' : '';
      if (step.atOnce)
        return (
          `<li${failing ? ' class="failing"' : ''}>${esc(step.command)}, ${step.atOnce.length} requests sent at ` +
          `once${disagrees}<div class="at-once">${step.atOnce
            .map(
              (one, at) =>
                `<div><strong>${index + 1}${atOnceLetter(at)}</strong> <code>${esc(one.request)}</code> → ` +
                `${esc(String(one.status))}<br>sent at ${one.sent} ms, answered at ${one.answered} ms` +
                `<pre class="curl">${esc(one.curl)}</pre></div>`,
            )
            .join('')}</div></li>`
        );
      return (
        `<li${failing ? ' class="failing"' : ''}>${esc(step.command)}: <code>${esc(step.request)}</code> → ` +
        `${esc(String(step.status))}${disagrees}<pre class="curl">${esc(step.curl)}</pre></li>`
      );
    })
    .join('');
  return `<h3>Shortest failing sequence</h3>
<p>${inlineCode(how)}</p>
<ol class="steps">${steps}</ol>
${outcome.map((line) => `<p>${inlineCode(line)}</p>`).join('\n')}`;
}

function operationItem(anchor: string, cause: Cause, operation: Cause['operations'][number]): string {
  const shown = cause.evidence[0]?.operation === operation.operation;
  const reproduce = shown
    ? ' (its evidence is below)'
    : ` <details><summary>reproduce</summary><pre class="curl">${esc(operation.reproduce.curl)}</pre></details>`;
  const id = operationAnchor(anchor, cause, operation.operation);
  const examples = `${operation.examples} example${operation.examples === 1 ? '' : 's'}`;
  const known = operation.known ? ' <span class="tag known">known</span>' : '';
  return `<li id="${id}"><code>${esc(operationName(operation))}</code>: ${examples}${known}${reproduce}</li>`;
}

/** One finding in full: what was expected, the request, the response, and how to reproduce it. */
function evidence(finding: Finding): string {
  const { request, response, failure } = finding.evidence;
  const { reproduce } = finding;
  const requestText = [
    `${request.method} ${request.url}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    ...(request.body !== undefined ? ['', request.body] : []),
  ].join('\n');
  const responseText = response
    ? [
        `HTTP ${response.status} (${response.durationMs} ms)`,
        ...Object.entries(response.headers).map(([k, v]) => `${k}: ${v}`),
        '',
        response.text,
      ].join('\n')
    : failure
      ? `no response: ${failure.code}: ${failure.message} (after ${failure.durationMs} ms)`
      : 'no response';
  const { example } = reproduce;
  const exampleItem = example
    ? `<dt>Example</dt><dd><code>${esc(example.property)}</code>, seed <code>${example.seed}</code>, ` +
      `index ${example.index}</dd>`
    : '';
  const replayItem = `<dt>Replay</dt><dd><code>${esc(reproduce.command)}</code></dd>`;
  return `<p>${esc(renderFinding(finding))}</p>
<details><summary>Request</summary><pre>${esc(requestText)}</pre></details>
<details><summary>Response</summary><pre>${esc(responseText)}</pre></details>
<p>Reproduce:</p>
<pre class="curl">${esc(reproduce.curl)}</pre>
<dl><dt>Seed</dt><dd><code>${reproduce.seed}</code></dd>${exampleItem}${replayItem}</dl>`;
}

/** An API's base URL and the ids the run used, each named: `https://... (organization <code>...</code>, ...)`. */
function targetCell(api: ApiDescriptor, target: TargetFields | undefined): string {
  if (!target) return '<span class="muted">not under test</span>';
  const ids = api.settings.ids.flatMap(({ field, label }) => {
    const value = target[field];
    return value ? [`${label} <code>${esc(value)}</code>`] : [];
  });
  return `${esc(target.baseUrl ?? '')}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}`;
}

function targetSection(report: BaselinedRunReport): string {
  const { reference } = report.target;
  const rows: [string, string][] = API_LIST.map((api) => [
    `${api.name.charAt(0).toUpperCase()}${api.name.slice(1)} API`,
    targetCell(api, report.target[api.name]),
  ]);
  if (reference)
    rows.push(['Embedded reference target', `faults: ${list(reference.faults)}; modes: ${list(reference.modes)}`]);
  const settings = settingsInWords(report.settings).map(
    ([name, words]) => `<dt>${esc(name)}</dt><dd>${esc(words)}</dd>`,
  );
  return `<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>
<dl class="settings">${settings.join('')}</dl>`;
}

function baselineSection(report: BaselinedRunReport): string {
  const b = report.baseline!;
  const rows = (
    items: readonly { rule: string; operation: string; operationId?: string }[],
    detail: (i: number) => string,
  ): string =>
    items
      .map(
        (e, i) =>
          `<tr><td><code>${esc(e.rule)}</code></td><td><code>${esc(operationName(e))}</code></td>` +
          `<td>${detail(i)}</td></tr>`,
      )
      .join('');
  const table = (title: string, body: string): string =>
    body ? `<h3>${esc(title)}</h3><table><tr><th>Rule</th><th>Operation</th><th></th></tr>${body}</table>` : '';
  const expired = `${b.expired.length} expired entr${b.expired.length === 1 ? 'y' : 'ies'}`;
  const counts =
    `${b.known.length} known failure(s) accepted, ${b.new.length} new failure(s), ${expired}, ` +
    `${b.unexpectedPasses.length} unexpected pass(es)`;
  const absent = b.absent ? ` Not found: ${esc(ABSENT_BASELINE)}` : '';
  return `<p>${esc(verdictWords(report))}. Compared with <code>${esc(b.file)}</code>: ${counts}.${absent}</p>
${table(
  'New failures',
  rows(b.new, (i) => esc(shorten(b.new[i]!.message, 160))),
)}
${table(
  'Expired entries: fix them, or renew or remove the entry',
  rows(b.expired, (i) => {
    const entry = b.expired[i]!;
    return `expired ${esc(entry.expires ?? '')}; ${esc(entry.now)} in this run; ${esc(entry.reason)}`;
  }),
)}
${table(
  'Unexpected passes: remove these entries',
  rows(b.unexpectedPasses, (i) => esc(b.unexpectedPasses[i]!.reason)),
)}
${
  b.known.length > 0
    ? `<details><summary>Known failures (${b.known.length})</summary>${table(
        'Known failures',
        rows(
          b.known,
          (i) => `${esc(b.known[i]!.reason)}${b.known[i]!.expires ? ` (until ${esc(b.known[i]!.expires!)})` : ''}`,
        ),
      )}</details>`
    : ''
}`;
}

function errorsSection(report: BaselinedRunReport): string {
  return `<p>The harness itself could not judge; these are not contract violations.</p>
<ul class="errors">${report.errors.map((e) => `<li><pre>${esc(e)}</pre></li>`).join('')}</ul>`;
}

function matrix(report: BaselinedRunReport, anchors: ReadonlyMap<Cause, string>, known: ReadonlySet<string>): string {
  const rules = unique(report.results.map((r) => r.rule));
  const operations = [...new Map(report.results.map((r) => [r.operation, r])).values()];
  const cells = new Map(report.results.map((r) => [key(r), r]));
  const causeOf = (result: RuleResult): [Cause, string] | undefined =>
    [...anchors].find(([c]) => c.rule === result.rule && c.operations.some((o) => o.operation === result.operation));
  const columns = operations.map(
    (op) =>
      `<th class="op" title="${esc(operationName(op))}">${esc(op.operationId ?? shortOperation(op.operation))}</th>`,
  );
  const head = `<tr><th>Rule</th>${columns.join('')}</tr>`;
  const rows = rules.map((rule) => {
    const tds = operations.map(({ operation }) => {
      const result = cells.get(key({ rule, operation }));
      if (!result) return '<td class="cell none" title="does not apply">·</td>';
      const klass = result.outcome === 'failed' && known.has(key(result)) ? 'known' : result.outcome;
      const mark = MARK[klass];
      const title = esc(
        `${rule} on ${operationName(result)}: ` +
          `${result.outcome}${klass === 'known' ? ' (known, in the baseline)' : ''}: ${shorten(result.message)}`,
      );
      const cause = result.outcome === 'failed' ? causeOf(result) : undefined;
      const link = cause ? `<a href="#${operationAnchor(cause[1], cause[0], operation)}">${mark}</a>` : mark;
      return `<td class="cell ${klass}" data-outcome="${klass}" title="${title}">${link}</td>`;
    });
    return (
      `<tr data-rule="${esc(rule)}"><th class="rule"><a href="#${traceAnchor(rule)}" title="the statements ` +
      `of the contract it enforces"><code>${esc(rule)}</code></a></th>${tds.join('')}</tr>`
    );
  });
  const legend =
    '✓ passed, ✗ failed (red; amber when the baseline accepts it; click for its cause), – skipped (hover for the ' +
    'reason), · the rule does not apply. Hover a column for its operation.';
  return `<table class="matrix">${head}${rows.join('')}</table>
<p class="muted">${legend}</p>`;
}

function coverageSection(report: BaselinedRunReport): string {
  const rows = (report.coverage ?? []).map((row) => {
    const statuses = Object.entries(row.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `<code>${esc(s)}</code>×${n}`)
      .join(', ');
    const judged = row.rules.filter((r) => Object.keys(r.parts).length > 0);
    const parts = row.rules
      .map(
        (r) =>
          `${r.rule} (${r.outcome}): ${
            Object.entries(r.parts)
              .map(([part, n]) => `${part} ×${n}`)
              .join(', ') || 'no part judged'
          }`,
      )
      .join('\n');
    const tried = row.enumValues.reduce((n, e) => n + e.values.length - e.neverTried.length, 0);
    const values = row.enumValues.reduce((n, e) => n + e.values.length, 0);
    const missing = [
      ...row.requestFields.neverSent.map((f) => `sent: <code>${esc(f)}</code>`),
      ...row.enumValues.flatMap((e) => e.neverTried.map((v) => `tried: <code>${esc(e.field)}=${esc(v)}</code>`)),
      ...row.responseFields.neverSeen.map((f) => `seen: <code>${esc(f)}</code>`),
    ];
    const never =
      missing.length === 0
        ? '<span class="muted">none</span>'
        : `<details><summary>${missing.length}</summary>${missing.join(', ')}</details>`;
    const enums = values === 0 ? '<span class="muted">none documented</span>' : `${tried} of ${values}`;
    return (
      `<tr><td title="${esc(operationName(row))}"><code>${esc(row.operationId ?? row.operation)}</code>` +
      `${row.operationId ? ` <span class="muted">${esc(row.operation.split(' ')[0] ?? '')}</span>` : ''}</td>` +
      `<td>${row.requests}</td><td>${statuses}</td><td ` +
      `title="${esc(parts)}">${judged.length} of ${row.rules.length}</td><td>${row.requestFields.accept} / ` +
      `${row.requestFields.observe} ` +
      `of ${row.requestFields.documented}</td><td>${enums}</td><td>${row.responseFields.seen} ` +
      `of ${row.responseFields.documented}</td><td>${sequenceCell(row.sequences)}</td>` +
      `<td>${neighbourhoodCell(row.neighbourhood)}</td><td>${never}</td></tr>`
    );
  });
  const credit =
    'Credited by judgement, not traffic: a rule counts when an exchange was judged by it (hover for each part and ' +
    'its examples). Request fields: documented fields sent by must-accept / observe probes; enum values: documented ' +
    'values sent by either; response fields: documented fields seen in 2xx answers; sequence steps: the steps of ' +
    'model-based sequences the operation answered, by the kind of step before each (open for each transition; ' +
    '<code>start</code> is a first step); neighbourhood: the parts of a request and kinds of value of ' +
    '<code>errors.client-not-server</code> sent (open for where, and for what was not sent and why).';
  const columns = [
    'Operation',
    'Requests',
    'Statuses seen',
    'Rules judged',
    'Request fields sent',
    'Enum values tried',
    'Response fields seen',
    'Sequence steps',
    'Neighbourhood sent',
    'Never sent, tried or seen',
  ];
  return `<p class="muted">${credit}</p>
<table class="coverage"><tr>${columns.map((column) => `<th>${column}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

/** The neighbourhood's parts and kinds sent to an operation, each with where, then those not sent with why. */
function neighbourhoodCell(neighbourhood: NeighbourhoodCoverage | undefined): string {
  if (!neighbourhood || neighbourhood.sent.length + neighbourhood.notSent.length === 0)
    return '<span class="muted">–</span>';
  const where = (places: readonly string[] | undefined): string =>
    places && places.length > 0 ? `: ${places.map((one) => `<code>${esc(one)}</code>`).join(', ')}` : '';
  const sent = neighbourhood.sent.map((one) => `${esc(one.part)} ×${one.requests}${where(one.where)}`);
  const notSent = neighbourhood.notSent.map(
    (one) => `<span class="muted">not sent: ${esc(one.part)}${where(one.where)} (${esc(one.reason)})</span>`,
  );
  return (
    `<details><summary>${neighbourhood.sent.length} sent, ${neighbourhood.notSent.length} not</summary>` +
    `${[...sent, ...notSent].join('<br>')}</details>`
  );
}

/** The steps sequences sent to an operation, each transition once opened; why none ran; or a dash. */
function sequenceCell(sequences: SequenceCoverage | null): string {
  if (!sequences) return '<span class="muted" title="no model-based sequence sends to it">–</span>';
  if (sequences.notSent !== undefined) return `<span class="muted">none: ${esc(sequences.notSent)}</span>`;
  const transitions = sequences.transitions
    .map((t) => `<code>${esc(t.from)}</code> → <code>${esc(t.to)}</code> ×${t.count}`)
    .join('<br>');
  return (
    `<details><summary>${sequences.steps} in ${sequences.transitions.length} ` +
    `transition${sequences.transitions.length === 1 ? '' : 's'}</summary>${transitions}</details>`
  );
}

/**
 * Per rule of the run, the statements of the contract documents it enforces, each rule's list the target of its row in
 * the matrix.
 */
function contractSection(report: BaselinedRunReport): string {
  const items = unique(report.results.map((r) => r.rule)).map((rule) => {
    const statements = ruleCatalogue(rule)?.statements ?? [];
    const list = statements.map((s) => `<li><code>${esc(s.id)}</code>: ${inlineCode(s.text)}</li>`).join('');
    const count = `${statements.length} statement${statements.length === 1 ? '' : 's'}`;
    const body =
      statements.length > 0
        ? `<ul class="ops">${list}</ul>`
        : '<p class="muted">none: the rule is inferred, the documents are silent.</p>';
    return `<details id="${traceAnchor(rule)}"><summary><code>${esc(rule)}</code>: ${count}</summary>${body}</details>`;
  });
  return (
    '<p class="muted">Which sentence of the contract each rule enforces (docs/traceability.md lists every ' +
    `statement, judged or not, and why).</p>\n<div class="rules">${items.join('\n')}</div>`
  );
}

/** The anchor of a rule's statements in the report: `trace-usage-grand-total`. */
function traceAnchor(rule: string): string {
  return `trace-${rule.replace(/[^a-z0-9-]/gi, '-')}`;
}

function skippedSection(report: BaselinedRunReport): string {
  const reasons = new Map<string, RuleResult[]>();
  for (const r of report.results)
    if (r.outcome === 'skipped') reasons.set(r.message, [...(reasons.get(r.message) ?? []), r]);
  const groups = report.skippedGroups.map(
    (g) =>
      `<tr><td><code>${esc(g.suite)}</code></td><td><code>${esc(g.group)}</code></td><td>${esc(g.reason)}</td></tr>`,
  );
  const byReason = [...reasons].map(
    ([reason, results]) => `<tr><td>${esc(reason)}</td><td>${results.length}</td></tr>`,
  );
  const groupTable =
    groups.length > 0
      ? '<h3>Probe groups not run</h3><table><tr><th>Suite</th><th>Group</th><th>Reason</th></tr>' +
        `${groups.join('')}</table>`
      : '<p class="muted">Every probe group ran.</p>';
  // With every group run, the section's line introduces the one table, which needs no heading of its own.
  const reasonHead = groups.length > 0 ? '<h3>Rule × operation skipped</h3>' : '';
  const reasonTable =
    byReason.length > 0
      ? `${reasonHead}<table><tr><th>Rule × operation skipped, by reason</th><th>Count</th></tr>` +
        `${byReason.join('')}</table>`
      : '';
  return `${groupTable}\n${reasonTable}`;
}

function createdSection(report: BaselinedRunReport): string {
  if (report.created.length === 0) return '<p class="muted">Nothing.</p>';
  const rows = report.created.map(
    (c) =>
      `<tr><td>${esc(c.kind)}</td><td><code>${esc(c.id)}</code></td>` +
      `<td>${esc(c.operation)}</td><td>${esc(createdNote(c))}</td></tr>`,
  );
  return `<details><summary>${esc(createdWords(report.created))}: the run leaves them on the target</summary>
<table><tr><th>Kind</th><th>Id</th><th>Operation</th><th>Note</th></tr>${rows.join('')}</table>
</details>`;
}

/** The anchor of an operation's line in a cause: `cause-2-op-3`. */
function operationAnchor(anchor: string, cause: Cause, operation: string): string {
  return `${anchor}-op-${cause.operations.findIndex((o) => o.operation === operation) + 1}`;
}

/** `PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}` → `PATCH …/pipes/{pipeId}`. */
function shortOperation(operation: string): string {
  const [method = '', path = ''] = operation.split(' ');
  const segments = path.split('/').filter(Boolean);
  return segments.length <= 2 ? operation : `${method} …/${segments.slice(-2).join('/')}`;
}

/** Milliseconds as seconds to one decimal: `12.3`. */
function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function shorten(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Escapes text, showing the spans it quotes in backticks as code. */
function inlineCode(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function list(items: readonly string[]): string {
  return items.length === 0 ? '<span class="muted">none</span>' : items.map((i) => `<code>${esc(i)}</code>`).join(', ');
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function key(item: { readonly rule: string; readonly operation: string }): string {
  return `${item.rule}\u0000${item.operation}`;
}

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
