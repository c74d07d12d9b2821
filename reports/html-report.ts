import type { Finding, Outcome, RuleResult } from '../core/finding.ts';
import { renderFinding } from '../core/finding.ts';
import type { BaselinedRunReport } from './baseline-comparison.ts';

const VERDICT = { passed: 'PASSED', failed: 'FAILED', error: 'ERROR' } as const;
const MARK: Readonly<Record<Outcome | 'known', string>> = { passed: '✓', failed: '✗', skipped: '–', known: '✗' };

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:1.5rem;max-width:1400px;color:#1f2328;background:#fff}
h1{font-size:1.6rem;margin:.2rem 0 1rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:1px solid #d0d7de;padding-bottom:.3rem}h3{font-size:1.05rem;margin:1.4rem 0 .4rem}
.verdict{display:inline-block;padding:.3rem .9rem;border-radius:6px;color:#fff;font-weight:700;letter-spacing:.05em}
.verdict.passed{background:#1a7f37}.verdict.failed{background:#cf222e}.verdict.error{background:#9a6700}
table{border-collapse:collapse;margin:.4rem 0}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.6rem;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
.matrix td.cell{text-align:center;min-width:2.2rem;font-weight:700}
.matrix th.op{font-weight:500;font-size:12px;max-width:9rem;word-break:break-all}
.matrix th.rule{white-space:nowrap}
td.passed{background:#dafbe1;color:#1a7f37}td.failed{background:#ffebe9;color:#cf222e}td.known{background:#fff8c5;color:#9a6700}
td.skipped{background:#f6f8fa;color:#57606a}td.none{background:#fff;color:#d0d7de}
td.cell a{color:inherit;text-decoration:none;display:block}
.failure{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;padding:.2rem 1rem .8rem;margin:1rem 0}
.failure.known{border-left-color:#9a6700}
.muted{color:#57606a}.tag{font-size:12px;border-radius:4px;padding:0 .35rem;background:#fff8c5;color:#9a6700;font-weight:600}
dl{display:grid;grid-template-columns:max-content auto;gap:.15rem 1rem;margin:.4rem 0}dt{font-weight:600}dd{margin:0}
ul.errors li{color:#9a6700}
`;

/** Renders the human report of a run: one self-contained HTML page that needs no network and no script. */
export function htmlReport(report: BaselinedRunReport): string {
  const failures = report.results.filter((r) => r.outcome === 'failed');
  const anchors = new Map(failures.map((r, i) => [r, `failure-${i + 1}`]));
  const known = new Set(report.baseline?.known.map((e) => key(e)));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Conformance ${VERDICT[report.outcome]}: seed ${report.seed}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Conformance report</h1>
${header(report)}
${targetSection(report)}
${baselineSection(report)}
${errorsSection(report)}
<h2 id="matrix">Rules × operations</h2>
${matrix(report, anchors, known)}
<h2 id="failures">Failures (${failures.length})</h2>
${failures.length === 0 ? '<p class="muted">No rule failed.</p>' : failures.map((r) => failureSection(r, anchors.get(r)!, known.has(key(r)))).join('\n')}
${coverageSection(report)}
${skippedSection(report)}
${createdSection(report)}
</body>
</html>
`;
}

function header(report: BaselinedRunReport): string {
  const { stats } = report;
  return `<p><span class="verdict ${report.outcome}" id="verdict">${VERDICT[report.outcome]}</span></p>
<p><strong>${stats.failed} failed</strong>, ${stats.passed} passed, ${stats.skipped} skipped (rule × operation); ${stats.requests} requests (${stats.rateLimited} rate-limited) in ${(report.durationMs / 1000).toFixed(1)} s.</p>
<dl><dt>Started</dt><dd>${esc(report.startedAt)}</dd><dt>Seed</dt><dd><code>${report.seed}</code></dd><dt>Replay</dt><dd><code>${esc(report.replay)}</code></dd></dl>`;
}

function targetSection(report: BaselinedRunReport): string {
  const { management, alerts, reference } = report.target;
  const rows: [string, string][] = [
    ['Management API', management ? `${esc(management.baseUrl)} (organization <code>${esc(management.organizationId)}</code>, service <code>${esc(management.serviceId)}</code>${management.backupId ? `, backup <code>${esc(management.backupId)}</code>` : ''})` : '<span class="muted">not under test</span>'],
    ['Alerts API', alerts ? `${esc(alerts.baseUrl)}${alerts.alertId ? ` (alert <code>${esc(alerts.alertId)}</code>)` : ''}` : '<span class="muted">not under test</span>'],
  ];
  if (reference) rows.push(['Embedded reference target', `faults: ${list(reference.faults)}; modes: ${list(reference.modes)}`]);
  const settings = Object.entries(report.settings).map(([name, value]) => `<tr><th>${esc(name)}</th><td><code>${esc(JSON.stringify(value))}</code></td></tr>`);
  return `<h2 id="target">Target and settings</h2>
<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join('')}</table>
<table>${settings.join('')}</table>`;
}

function baselineSection(report: BaselinedRunReport): string {
  const b = report.baseline;
  if (!b) return '';
  const rows = (items: readonly { rule: string; operation: string }[], detail: (i: number) => string): string =>
    items.map((e, i) => `<tr><td><code>${esc(e.rule)}</code></td><td><code>${esc(e.operation)}</code></td><td>${detail(i)}</td></tr>`).join('');
  const table = (title: string, body: string): string => (body ? `<h3>${esc(title)}</h3><table><tr><th>Rule</th><th>Operation</th><th></th></tr>${body}</table>` : '');
  return `<h2 id="baseline">Baseline</h2>
<p>Compared with <code>${esc(b.file)}</code>: ${b.known.length} known failure(s) accepted, ${b.new.length} new failure(s), ${b.expired.length} expired entr${b.expired.length === 1 ? 'y' : 'ies'}, ${b.unexpectedPasses.length} unexpected pass(es).</p>
${table('New failures', rows(b.new, (i) => esc(b.new[i]!.message)))}
${table('Expired entries: fix them, or renew or remove the entry', rows(b.expired, (i) => `expired ${esc(b.expired[i]!.expires ?? '')}; ${esc(b.expired[i]!.now)} in this run; ${esc(b.expired[i]!.reason)}`))}
${table('Unexpected passes: remove these entries', rows(b.unexpectedPasses, (i) => esc(b.unexpectedPasses[i]!.reason)))}
${table('Known failures', rows(b.known, (i) => `${esc(b.known[i]!.reason)}${b.known[i]!.expires ? ` (until ${esc(b.known[i]!.expires!)})` : ''}`))}`;
}

function errorsSection(report: BaselinedRunReport): string {
  if (report.errors.length === 0) return '';
  return `<h2 id="errors">Harness errors (${report.errors.length})</h2>
<p>The harness itself could not judge; these are not contract violations.</p>
<ul class="errors">${report.errors.map((e) => `<li><pre>${esc(e)}</pre></li>`).join('')}</ul>`;
}

function matrix(report: BaselinedRunReport, anchors: ReadonlyMap<RuleResult, string>, known: ReadonlySet<string>): string {
  const rules = unique(report.results.map((r) => r.rule));
  const operations = unique(report.results.map((r) => r.operation));
  const cells = new Map(report.results.map((r) => [key(r), r]));
  const head = `<tr><th>Rule</th>${operations.map((op) => `<th class="op" title="${esc(op)}">${esc(shortOperation(op))}</th>`).join('')}</tr>`;
  const rows = rules.map((rule) => {
    const tds = operations.map((operation) => {
      const result = cells.get(key({ rule, operation }));
      if (!result) return '<td class="cell none" title="does not apply">·</td>';
      const klass = result.outcome === 'failed' && known.has(key(result)) ? 'known' : result.outcome;
      const mark = MARK[klass];
      const title = esc(`${rule} on ${operation}: ${result.outcome}${klass === 'known' ? ' (known, in the baseline)' : ''}: ${result.message}`);
      const anchor = anchors.get(result);
      return `<td class="cell ${klass}" data-outcome="${klass}" title="${title}">${anchor ? `<a href="#${anchor}">${mark}</a>` : mark}</td>`;
    });
    return `<tr data-rule="${esc(rule)}"><th class="rule"><code>${esc(rule)}</code></th>${tds.join('')}</tr>`;
  });
  return `<table class="matrix">${head}${rows.join('')}</table>
<p class="muted">✓ passed, ✗ failed (red; amber when the baseline accepts it), – skipped (hover for the reason), · the rule does not apply. Hover a column for its operation.</p>`;
}

function failureSection(result: RuleResult, anchor: string, isKnown: boolean): string {
  return `<section class="failure${isKnown ? ' known' : ''}" id="${anchor}">
<h3><code>${esc(result.rule)}</code> on <code>${esc(result.operation)}</code>${isKnown ? ' <span class="tag">known</span>' : ''}</h3>
<p>${esc(result.message)}</p>
${result.findings.map((f, i) => findingSection(f, i)).join('\n')}
${result.violations > result.findings.length ? `<p class="muted">${result.violations - result.findings.length} more violation(s) not kept.</p>` : ''}
</section>`;
}

function findingSection(finding: Finding, index: number): string {
  const { request, response, failure } = finding.evidence;
  const { reproduce } = finding;
  const requestText = [`${request.method} ${request.url}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`), ...(request.body !== undefined ? ['', request.body] : [])].join('\n');
  const responseText = response
    ? [`HTTP ${response.status} (${response.durationMs} ms)`, ...Object.entries(response.headers).map(([k, v]) => `${k}: ${v}`), '', response.text].join('\n')
    : failure ? `no response: ${failure.code}: ${failure.message} (after ${failure.durationMs} ms)` : 'no response';
  return `<h4>Finding ${index + 1}</h4>
<p>${esc(renderFinding(finding))}</p>
<details${index === 0 ? ' open' : ''}><summary>Request</summary><pre>${esc(requestText)}</pre></details>
<details${index === 0 ? ' open' : ''}><summary>Response</summary><pre>${esc(responseText)}</pre></details>
<p>Reproduce:</p>
<pre class="curl">${esc(reproduce.curl)}</pre>
<dl><dt>Seed</dt><dd><code>${reproduce.seed}</code></dd>${reproduce.example ? `<dt>Example</dt><dd><code>${esc(reproduce.example.property)}</code>, seed <code>${reproduce.example.seed}</code>, index ${reproduce.example.index}</dd>` : ''}<dt>Replay</dt><dd><code>${esc(reproduce.command)}</code></dd></dl>`;
}

function coverageSection(report: BaselinedRunReport): string {
  const rows = Object.entries(report.stats.operations).map(([operation, coverage]) => {
    const statuses = Object.entries(coverage.statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `<code>${esc(s)}</code>×${n}`).join(', ');
    return `<tr><td><code>${esc(operation)}</code></td><td>${coverage.requests}</td><td>${statuses}</td></tr>`;
  });
  const reached = new Set(Object.keys(report.stats.operations));
  const unreached = unique(report.results.map((r) => r.operation)).filter((op) => !reached.has(op));
  return `<h2 id="coverage">Coverage</h2>
<p>${reached.size} operation(s) reached${unreached.length > 0 ? `; not reached: ${unreached.map((op) => `<code>${esc(op)}</code>`).join(', ')}` : ''}.</p>
<table><tr><th>Operation</th><th>Requests</th><th>Statuses seen</th></tr>${rows.join('')}</table>`;
}

function skippedSection(report: BaselinedRunReport): string {
  const reasons = new Map<string, RuleResult[]>();
  for (const r of report.results) if (r.outcome === 'skipped') reasons.set(r.message, [...(reasons.get(r.message) ?? []), r]);
  const groups = report.skippedGroups.map((g) => `<tr><td><code>${esc(g.suite)}</code></td><td><code>${esc(g.group)}</code></td><td>${esc(g.reason)}</td></tr>`);
  const byReason = [...reasons].map(([reason, results]) => `<tr><td>${esc(reason)}</td><td>${results.length}</td></tr>`);
  return `<h2 id="skipped">Skipped</h2>
${groups.length > 0 ? `<h3>Probe groups not run</h3><table><tr><th>Suite</th><th>Group</th><th>Reason</th></tr>${groups.join('')}</table>` : '<p class="muted">Every probe group ran.</p>'}
${byReason.length > 0 ? `<h3>Rule × operation skipped</h3><table><tr><th>Reason</th><th>Count</th></tr>${byReason.join('')}</table>` : ''}`;
}

function createdSection(report: BaselinedRunReport): string {
  const rows = report.created.map((c) => `<tr><td>${esc(c.kind)}</td><td><code>${esc(c.id)}</code></td><td>${esc(c.operation)}</td><td>${esc(c.note)}</td></tr>`);
  return `<h2 id="created">Created on the target (${report.created.length})</h2>
${rows.length > 0 ? `<table><tr><th>Kind</th><th>Id</th><th>Operation</th><th>Note</th></tr>${rows.join('')}</table>` : '<p class="muted">Nothing.</p>'}`;
}

/** `PATCH /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}` → `PATCH …/pipes/{pipeId}`. */
function shortOperation(operation: string): string {
  const [method = '', path = ''] = operation.split(' ');
  const segments = path.split('/').filter(Boolean);
  return segments.length <= 2 ? operation : `${method} …/${segments.slice(-2).join('/')}`;
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
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
