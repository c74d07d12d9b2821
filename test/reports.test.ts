import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyBaseline, compareWithBaseline } from '../reports/baseline-comparison.ts';
import { findingsJson } from '../reports/findings-json.ts';
import { githubAnnotations } from '../reports/github-annotations.ts';
import { htmlReport } from '../reports/html-report.ts';
import { markdownSummary } from '../reports/markdown-summary.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { writeReports } from '../reports/write-reports.ts';
import { fixtureReport, fixtureResult, OPERATIONS } from './support/run-report-fixture.ts';

const HOSTILE = 'got "<script>alert(1)</script>" | 100% & more\r\nnext line `code` *bold*';

describe('findings.json', () => {
  it('leads with the fields INTERFACE.md names, and gives each failure its evidence and reproduction', () => {
    const doc = JSON.parse(findingsJson(fixtureReport()));
    expect(Object.keys(doc).slice(0, 5)).toEqual(['outcome', 'seed', 'startedAt', 'durationMs', 'stats']);
    expect(doc.stats.requests).toBe(12);
    for (const result of doc.results) expect(Object.keys(result).slice(0, 4)).toEqual(['rule', 'operation', 'outcome', 'message']);
    const failed = doc.results.find((r: { outcome: string }) => r.outcome === 'failed');
    expect(failed.evidence.request.method).toBe('POST');
    expect(failed.evidence.response.status).toBe(200);
    expect(failed.reproduction).toMatchObject({ seed: 42, curl: expect.stringMatching(/^curl /) });
    expect(doc.results.filter((r: { evidence?: unknown }) => r.evidence)).toHaveLength(1);
  });

  it('carries the baseline section when a baseline was applied', () => {
    const report = fixtureReport();
    const judged = applyBaseline(report, compareWithBaseline(report.results, { version: 1, entries: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'ticket 1' }] }, 'b.json', '2025-01-01'));
    const doc = JSON.parse(findingsJson(judged));
    expect(doc.outcome).toBe('passed');
    expect(doc.baseline).toEqual({ file: 'b.json', known: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'ticket 1' }], new: [], expired: [], unexpectedPasses: [] });
  });
});

describe('summary.md', () => {
  it('renders verdict, counts, failures with a reproduction, skips and created resources', () => {
    expect(markdownSummary(fixtureReport())).toMatchSnapshot();
  });

  it('keeps hostile messages on one table row, inert', () => {
    const md = markdownSummary(fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE)]));
    const row = md.split('\n').find((line) => line.startsWith('| `auth.required`'))!;
    expect(row).toBeDefined();
    expect(row).not.toContain('<script>');
    expect(row.split(/(?<!\\)\|/).length).toBe(5);
  });
});

describe('GitHub annotations', () => {
  it('prints one ::error per failure, escaping % CR LF in the message and : , in the title', () => {
    const report = fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE)]);
    const [line, ...rest] = githubAnnotations(report);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^::error title=auth\.required::POST \/v1\/organizations\/\{organizationId\}\/keys: /);
    expect(line).toContain('100%25 & more%0D%0Anext line');
    expect(line).toContain('%0AReproduce (seed 42): curl -sS -i -X POST ');
    expect(line).not.toMatch(/[\r\n]/);
    const withBaseline = (expires?: string): string[] => githubAnnotations(applyBaseline(report, compareWithBaseline(report.results, {
      version: 1,
      entries: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'r', ...(expires ? { expires } : {}) }],
    }, 'b.json', '2025-01-01')));
    expect(withBaseline()).toEqual([expect.stringMatching(/^::warning title=auth\.required::/)]);
    expect(withBaseline('2000-01-01')).toEqual([
      expect.stringMatching(/^::error title=auth\.required::/),
      expect.stringMatching(/^::error title=baseline%3A auth\.required::POST .*: the baseline entry expired on 2000-01-01 \(now failed\)/),
    ]);
    expect(githubAnnotations(fixtureReport([{ ...fixtureResult('a.b', 'GET /x', 'passed') }]))).toEqual([]);
  });
});

describe('report.html', () => {
  it('escapes every text and loads nothing from outside', () => {
    const html = htmlReport(fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE)]));
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/\s(src|href)="(?!#)/);
    expect(html).not.toMatch(/url\(|@import/);
  });
});

describe('terminal summary', () => {
  it('marks known failures and lists the baseline outcome', () => {
    const report = fixtureReport();
    const judged = applyBaseline(report, compareWithBaseline(report.results, {
      version: 1,
      entries: [
        { rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'r' },
        { rule: 'response.schema', operation: OPERATIONS.LIST_ALERTS, reason: 'stale' },
      ],
    }, 'b.json', '2025-01-01'));
    const text = terminalSummary(judged);
    expect(text).toContain(`(known) ${OPERATIONS.CREATE_KEY}`);
    expect(text).toContain('Baseline b.json: 1 known failure(s), 0 new, 0 expired, 1 unexpected pass(es).');
    expect(text).toContain(`passes now, remove the entry: response.schema on ${OPERATIONS.LIST_ALERTS}`);
    expect(text).toMatch(/^PASSED: 1 failed/m);
  });
});

describe('writeReports', () => {
  it('writes findings.json, report.html and summary.md, appends the step summary, annotates only on GitHub Actions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reports-'));
    const stepSummary = join(dir, 'step-summary.md');
    await writeFile(stepSummary, 'previous step\n');
    const printed: string[] = [];
    const report = fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', 'echoed hunter2-secret')]);
    const redact = (text: string): string => text.split('hunter2-secret').join('[redacted]');
    const files = await writeReports(join(dir, 'out'), report, { out: (l) => printed.push(l), env: { GITHUB_STEP_SUMMARY: stepSummary, GITHUB_ACTIONS: 'true' }, redact });
    expect(files.map((f) => f.slice(dir.length))).toEqual(['/out/findings.json', '/out/report.html', '/out/summary.md']);
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['findings.json', 'report.html', 'summary.md']);
    const summary = await readFile(stepSummary, 'utf8');
    expect(summary).toMatch(/^previous step\n## Conformance: ❌ FAILED/);
    expect(printed).toHaveLength(1);
    for (const text of [summary, ...printed, ...(await Promise.all(files.map((f) => readFile(f, 'utf8'))))]) expect(text).not.toContain('hunter2-secret');

    const quiet: string[] = [];
    await writeReports(join(dir, 'quiet'), report, { out: (l) => quiet.push(l), env: { GITHUB_ACTIONS: 'false' }, redact });
    expect(quiet).toEqual([]);
  });
});
