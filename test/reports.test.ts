import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { describe, expect, it } from 'vitest';
import { applyBaseline, compareWithBaseline } from '../reports/baseline-comparison.ts';
import { findingsJson } from '../reports/findings-json.ts';
import { githubAnnotations } from '../reports/github-annotations.ts';
import { htmlReport } from '../reports/html-report.ts';
import { junitXml } from '../reports/junit-xml.ts';
import { settingsInWords } from '../reports/settings-words.ts';
import { markdownSummary } from '../reports/markdown-summary.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { PLAIN_COLUMNS, terminalStyle } from '../reports/terminal-style.ts';
import { writeReports } from '../reports/write-reports.ts';
import { reportLocations } from '../spec/operation-locations.ts';
import { sarifLog } from '../reports/sarif.ts';
import { ROOT } from './support/cli.ts';
import { fixtureFinding, fixtureReport, fixtureResult, OPERATIONS } from './support/run-report-fixture.ts';

const HOSTILE = 'got "<script>alert(1)</script>" | 100% & more\r\nnext line `code` *bold*';

describe('findings.json', () => {
  it('leads with the fields INTERFACE.md names, and gives each failure its evidence and reproduction', () => {
    const doc = JSON.parse(findingsJson(fixtureReport()));
    expect(Object.keys(doc).slice(0, 5)).toEqual(['outcome', 'seed', 'startedAt', 'durationMs', 'stats']);
    expect(doc.stats.requests).toBe(12);
    for (const result of doc.results)
      expect(Object.keys(result).slice(0, 4)).toEqual(['rule', 'operation', 'outcome', 'message']);
    const failed = doc.results.find((r: { outcome: string }) => r.outcome === 'failed');
    expect(failed.evidence.request.method).toBe('POST');
    expect(failed.evidence.response.status).toBe(200);
    expect(failed.reproduction).toMatchObject({ seed: 42, curl: expect.stringMatching(/^curl /) });
    expect(doc.results.filter((r: { evidence?: unknown }) => r.evidence)).toHaveLength(1);
  });

  it('stores each body once, keeps other findings without evidence, and lists the causes', () => {
    const json = fixtureFinding('auth.required', OPERATIONS.CREATE_KEY);
    const parsed = {
      ...json,
      evidence: {
        ...json.evidence,
        request: { ...json.evidence.request, json: { name: 'k' } },
        response: { ...json.evidence.response!, json: { status: 200 } },
      },
    };
    const result = {
      ...fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed'),
      operationId: 'createKey',
      violations: 9,
      findings: [parsed, json],
    };
    const doc = JSON.parse(findingsJson(fixtureReport([result])));
    const [entry] = doc.results;
    expect(entry.evidence.response).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { status: 200 },
      durationMs: 3,
    });
    expect(entry.evidence.request.body).toBe('{"name":"k","credentials":"[redacted]"}');
    expect(entry.evidence.request).not.toHaveProperty('json');
    expect(entry.findings).toHaveLength(2);
    for (const f of entry.findings) {
      expect(f).not.toHaveProperty('evidence');
      expect(f).toMatchObject({
        path: '',
        expected: 'rejection (4xx) of no credentials',
        status: 200,
        reproduce: { seed: 42 },
      });
    }
    expect(doc.causes).toEqual([
      {
        rule: 'auth.required',
        basis: 'stated',
        doc: 'docs/rules.md#authrequired',
        severity: 'credentials',
        path: '',
        kind: 'HTTP 2xx',
        summary: 'the response: expected rejection (4xx) of no credentials, got HTTP 200',
        examples: 9,
        known: false,
        operations: [{ operation: OPERATIONS.CREATE_KEY, operationId: 'createKey', examples: 9, known: false }],
      },
    ]);
    const withText = JSON.parse(
      findingsJson(fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed')])),
    );
    expect(withText.results[0].evidence.response.text).toBe('{"status":200,"result":{"keySecret":"[redacted]"}}');
  });

  it('carries the baseline section when a baseline was applied', () => {
    const report = fixtureReport();
    const judged = applyBaseline(
      report,
      compareWithBaseline(
        report.results,
        { version: 1, entries: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'ticket 1' }] },
        'b.json',
        '2025-01-01',
      ),
    );
    const doc = JSON.parse(findingsJson(judged));
    expect(doc.outcome).toBe('passed');
    expect(doc.baseline).toEqual({
      file: 'b.json',
      known: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'ticket 1' }],
      new: [],
      expired: [],
      unexpectedPasses: [],
    });
  });
});

describe('summary.md', () => {
  it('renders verdict, counts, failures with a reproduction, skips and created resources', async () => {
    await expect(markdownSummary(fixtureReport())).toMatchFileSnapshot('__snapshots__/fixture/summary.md');
  });

  it('keeps hostile messages on one table row, inert', () => {
    const md = markdownSummary(
      fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE)]),
    );
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
    const withBaseline = (expires?: string): string[] =>
      githubAnnotations(
        applyBaseline(
          report,
          compareWithBaseline(
            report.results,
            {
              version: 1,
              entries: [
                {
                  rule: 'auth.required',
                  operation: OPERATIONS.CREATE_KEY,
                  reason: 'r',
                  ...(expires ? { expires } : {}),
                },
              ],
            },
            'b.json',
            '2025-01-01',
          ),
        ),
      );
    expect(withBaseline()).toEqual([expect.stringMatching(/^::warning title=auth\.required::/)]);
    expect(withBaseline('2000-01-01')).toEqual([
      expect.stringMatching(/^::error title=auth\.required::/),
      expect.stringMatching(
        /^::error title=baseline%3A auth\.required::POST .*: the baseline entry expired on 2000-01-01 \(now failed\)/,
      ),
    ]);
    expect(githubAnnotations(fixtureReport([{ ...fixtureResult('a.b', 'GET /x', 'passed') }]))).toEqual([]);
  });
});

describe("locations in the user's spec copies", () => {
  it('place SARIF results and annotations alike: the copy holding the operation, else no file', async () => {
    const checkout = await mkdtemp(join(tmpdir(), 'checkout-'));
    const shipped = await readFile(join(ROOT, 'openapi', 'management.yaml'), 'utf8');
    await mkdir(join(checkout, 'contract'));
    await writeFile(join(checkout, 'contract', 'management.yaml'), `# our copy\n${shipped}`);
    const locations = await reportLocations(['contract/management.yaml'], checkout);
    const report = {
      ...fixtureReport([
        fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed'),
        fixtureResult('auth.required', 'GET /api/v2/alerts', 'failed'),
      ]),
      outcome: 'failed' as const,
    };
    const lines = shipped.split('\n');
    // 1-based, one line down in the copy.
    const line = lines.indexOf('    post:', lines.indexOf('  /v1/organizations/{organizationId}/keys:')) + 2;
    const [key, alerts] = githubAnnotations(report, locations);
    expect(key).toMatch(new RegExp(`^::error file=contract/management\\.yaml,line=${line},col=5,title=auth`));
    expect(alerts).toMatch(/^::error title=auth\.required::GET \/api\/v2\/alerts: /);
    const sarif = JSON.parse(sarifLog(report, locations)) as Log;
    expect(sarif.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation ?? null)).toEqual([
      {
        artifactLocation: { uri: 'contract/management.yaml', uriBaseId: '%SRCROOT%' },
        region: { startLine: line, startColumn: 5 },
      },
      null,
    ]);
    await expect(reportLocations(['../elsewhere.yaml'], checkout)).rejects.toThrow(
      'the spec copy "../elsewhere.yaml" is not in the checkout: give the path of a file in the repository.',
    );
    await expect(reportLocations(['missing.yaml'], checkout)).rejects.toThrow(/^the spec copy "missing\.yaml": ENOENT/);
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

describe('junit.xml', () => {
  const cases = (xml: string) =>
    [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"(?:\/>|>([\s\S]*?)<\/testcase>)/g)].map(
      ([, classname, name, body]) => ({ classname, name, body: body ?? '' }),
    );

  it('groups the cases by operation, names each case by operation and rule, and counts what CI counts', () => {
    const results = [
      { ...fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE), operationId: 'createKey' },
      { ...fixtureResult('keys.roles-enum', OPERATIONS.CREATE_KEY, 'passed'), operationId: 'createKey' },
      fixtureResult('envelope.request-id-v4', OPERATIONS.GET_BACKUP, 'skipped'),
    ];
    const xml = junitXml(fixtureReport(results));
    expect(xml).toMatch(
      new RegExp(
        String.raw`^<\?xml version="1\.0" encoding="UTF-8"\?>\n` +
          String.raw`<testsuites name="conformance" tests="3" failures="1" errors="0" skipped="1" time="1\.234"`,
      ),
    );
    expect(
      [...xml.matchAll(/<testsuite name="([^"]*)" tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)">/g)].map(
        (m) => m.slice(1),
      ),
    ).toEqual([
      [`createKey (${OPERATIONS.CREATE_KEY})`, '2', '1', '0'],
      [OPERATIONS.GET_BACKUP, '1', '0', '1'],
    ]);
    const [failed, passed] = cases(xml);
    expect(failed!.name).toBe(`createKey (${OPERATIONS.CREATE_KEY}) &gt; auth.required`);
    expect(failed!.classname).toBe('conformance.createKey');
    expect(failed!.body).toContain(
      `<failure message="auth.required on ${OPERATIONS.CREATE_KEY}: got &quot;&lt;script&gt;`,
    );
    expect(passed!.body).toBe('');
  });

  // A failure's body (violations, exchange, reproduction) is pinned whole by test/rendered-output.test.ts.
  it('keeps a hostile message and control characters out of the XML, as text XML can carry', () => {
    const result = {
      ...fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', HOSTILE),
      operationId: 'createKey',
    };
    const xml = junitXml(fixtureReport([result]));
    expect(xml).not.toContain('<script');
    const controls = (text: string) => [...text].filter((ch) => ch.charCodeAt(0) < 0x20 && !'\t\n\r'.includes(ch));
    expect(controls(xml)).toEqual([]);
    const control = junitXml(fixtureReport([{ ...result, message: 'a\u0000b\u001bc' }]));
    expect(control).toContain('message="auth.required on');
    expect(controls(control)).toEqual([]);
  });

  it(
    'skips a failure the baseline accepts, saying so, and lists harness errors, an interrupt and a failed ' +
      'gate as errors',
    () => {
      const result = { ...fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed'), operationId: 'createKey' };
      const report = {
        ...fixtureReport([result]),
        errors: ['pipes: the suite crashed'],
        interrupted: 'SIGINT' as const,
        gate: '1 selected rule(s) could not be judged',
        baseline: {
          file: 'b.json',
          known: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'ticket "r" & co' }],
          new: [],
          expired: [],
          unexpectedPasses: [],
        },
      };
      const xml = junitXml(report);
      const [known, ...harness] = cases(xml);
      expect(known!.body).toContain(
        '<skipped message="known failure, accepted by the baseline: ticket &quot;r&quot; &amp; co. failed message"/>',
      );
      expect(harness.map((c) => c.name)).toEqual(['error 1', 'interrupted', 'require-judged']);
      expect(harness.map((c) => /<error message="([^"]*)"/.exec(c.body)?.[1])).toEqual([
        'pipes: the suite crashed',
        'the run was interrupted by SIGINT: rules left without evidence are skipped',
        '1 selected rule(s) could not be judged',
      ]);
      expect(xml).toMatch(/<testsuites name="conformance" tests="4" failures="0" errors="3" skipped="1"/);
    },
  );
});

describe('report.html in words', () => {
  it('words the settings, names the target at the top, and words a baseline verdict as such', () => {
    expect(
      settingsInWords({
        maxRps: 0,
        maxRequests: null,
        runs: 8,
        timeoutMs: 10_000,
        budgetMs: 600_000,
        concurrency: 1,
        maxResponseBytes: 4 * 1024 * 1024,
        shard: '2/3',
        allow: ['read', 'write'],
        rules: 36,
        extra: { a: 1 },
      }),
    ).toEqual([
      ['Request rate', 'no limit'],
      ['Requests', 'no limit'],
      ['Examples', '8 examples per property'],
      ['Request timeout', '10 s per request'],
      ['Run budget', '600 s for the whole run'],
      ['Concurrency', 'at most 1 request in flight'],
      ['Response size', 'response bodies up to 4 MiB'],
      ['Shard', 'part 2 of 3'],
      ['Probe classes', 'read, write probes allowed'],
      ['Rules', '36 rules selected'],
      ['extra', '{"a":1}'],
    ]);
    expect(settingsInWords({ maxRps: 5, maxRequests: 100 })).toEqual([
      ['Request rate', 'at most 5 requests per second'],
      ['Requests', 'at most 100 requests in the run'],
    ]);
    const report = fixtureReport();
    const judged = applyBaseline(
      report,
      compareWithBaseline(
        report.results,
        { version: 1, entries: [{ rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'r' }] },
        'b.json',
        '2025-01-01',
      ),
    );
    const html = htmlReport(judged);
    expect(html).toContain(
      '<span class="verdict passed" id="verdict">PASSED against the baseline: 0 new, 1 known</span>',
    );
    expect(html).toContain('<dt>Examples</dt><dd>8 examples per property</dd>');
    expect(
      html.indexOf(
        '<p class="target">Tested: the embedded reference target with faults <code>auth-missing-accepted</code>',
      ),
    ).toBeLessThan(html.indexOf('id="verdict"'));
    expect(html).toMatch(
      /<footer>contract-conformance \d+\.\d+\.\d+; run started 2025-01-02T03:04:05\.000Z, took 1\.2 s/,
    );
    expect(html).toContain('<details class="cause known" data-rule="auth.required" data-severity="credentials">');
  });
});

describe('terminal summary', () => {
  const judged = () => {
    const report = fixtureReport();
    return applyBaseline(
      report,
      compareWithBaseline(
        report.results,
        {
          version: 1,
          entries: [
            { rule: 'auth.required', operation: OPERATIONS.CREATE_KEY, reason: 'r' },
            { rule: 'response.schema', operation: OPERATIONS.LIST_ALERTS, reason: 'stale' },
          ],
        },
        'b.json',
        '2025-01-01',
      ),
    );
  };

  it("replays the failing rules in place of the run's own --rules, never both", () => {
    const report = { ...judged(), replay: 'npx conformance --seed 3 --rules auth.required,response.schema --runs 8' };
    const text = terminalSummary(report, { color: false, columns: 200, verbose: false });
    expect(text).toContain('  npx conformance --seed 3 --runs 8 --rules auth.required\n');
    expect(text.match(/--rules/g)).toHaveLength(1);
  });

  it('marks known causes and words the verdict against the baseline', () => {
    const text = terminalSummary(judged());
    expect(text).toContain('Failures: 1 cause(s) (0 new, 1 known), worst first');
    expect(text).toMatch(
      /^ {2}✗ \(known\) auth\.required: the response: expected rejection \(4xx\) of no credentials, got HTTP 200\. 1$/m,
    );
    expect(text).toContain('Baseline b.json: 1 known failure(s), 0 new, 0 expired, 1 unexpected pass(es).');
    expect(text).toContain(`passes now, remove the entry: response.schema on ${OPERATIONS.LIST_ALERTS}`);
    expect(text).toMatch(/^PASSED against the baseline: 0 new, 1 known: 1 failed/m);
  });

  it(
    'puts failures before passes, folds green rules into a count, wraps to the width, and lists every ' +
      'verdict with verbose',
    () => {
      const report = fixtureReport([
        fixtureResult('response.schema', OPERATIONS.LIST_ALERTS, 'passed'),
        fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed'),
        fixtureResult('response.schema', OPERATIONS.CREATE_KEY, 'passed'),
        {
          ...fixtureResult('backups.identity', OPERATIONS.GET_BACKUP, 'skipped', 'BACKUP_ID is not set'),
          operationId: 'getBackup',
        },
      ]);
      const text = terminalSummary(report, { color: false, columns: 60, verbose: false });
      const lines = text.split('\n');
      expect(lines.findIndex((l) => l.includes('auth.required'))).toBeLessThan(
        lines.findIndex((l) => l.startsWith('✓')),
      );
      expect(lines.filter((l) => l.startsWith('✓'))).toEqual([
        '✓ 1 rule(s) passed on every operation they judged (2 rule ×',
      ]);
      expect(text).toContain(
        '? 1 rule × operation verdict(s) could not be judged (not\n  passed; --require-judged fails on ' +
          'them):\n    BACKUP_ID is not set: backups.identity on getBackup',
      );
      expect(text).not.toContain('response.schema');
      const replay = lines.findIndex((l) => l.includes('the failing rules:')) + 1;
      for (const [i, line] of lines.entries())
        if (i !== replay && !line.startsWith('FAILED')) expect(line.length, line).toBeLessThanOrEqual(60);
      expect(lines[replay]).toBe(
        '  npx conformance --seed 42 --reference-fault auth-missing-accepted --rules auth.required',
      );
      expect(text.includes('\u001b')).toBe(false);

      const verbose = terminalSummary(report, { color: false, columns: 100, verbose: true });
      expect(verbose).toContain(`  ✓ response.schema on ${OPERATIONS.LIST_ALERTS}: passed message`);
      expect(verbose.replace(/\s+/g, ' ')).toContain(
        ` - backups.identity on getBackup (${OPERATIONS.GET_BACKUP}): BACKUP_ID is not set `,
      );
    },
  );

  it('paints in colour only when asked: red failures, green count', () => {
    const text = terminalSummary(fixtureReport(), { color: true, columns: 100, verbose: false });
    expect(text).toContain('\u001b[31m  ✗\u001b[39m \u001b[1mauth.required\u001b[22m: ');
    expect(text).toContain('\u001b[32m✓ 1 rule(s) passed');
  });

  it('takes colour from the terminal, NO_COLOR and FORCE_COLOR, and the width from the terminal (100 off one)', () => {
    const tty = { isTTY: true, columns: 132 };
    expect(terminalStyle(tty, {})).toEqual({ color: true, columns: 132, verbose: false });
    expect(terminalStyle(tty, { NO_COLOR: '1' }).color).toBe(false);
    expect(terminalStyle(tty, { NO_COLOR: '' }).color).toBe(true);
    expect(terminalStyle(tty, { FORCE_COLOR: '0' }).color).toBe(false);
    expect(terminalStyle({ isTTY: false, columns: 132 }, {})).toEqual({
      color: false,
      columns: PLAIN_COLUMNS,
      verbose: false,
    });
    expect(terminalStyle({}, { FORCE_COLOR: '1', NO_COLOR: '1' }).color).toBe(true);
    expect(terminalStyle({}, {}, true).verbose).toBe(true);
  });
});

describe('writeReports', () => {
  it(
    'writes findings.json, report.html, summary.md, junit.xml and results.sarif, appends the step summary, ' +
      'annotates only on GitHub Actions',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'reports-'));
      const stepSummary = join(dir, 'step-summary.md');
      await writeFile(stepSummary, 'previous step\n');
      const printed: string[] = [];
      const report = fixtureReport([
        fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'failed', 'echoed hunter2-secret'),
      ]);
      const redact = (text: string): string => text.split('hunter2-secret').join('[redacted]');
      const files = await writeReports(join(dir, 'out'), report, {
        out: (l) => printed.push(l),
        env: { GITHUB_STEP_SUMMARY: stepSummary, GITHUB_ACTIONS: 'true' },
        redact,
      });
      expect(files.map((f) => f.slice(dir.length))).toEqual([
        '/out/findings.json',
        '/out/report.html',
        '/out/summary.md',
        '/out/junit.xml',
        '/out/results.sarif',
      ]);
      expect((await readdir(join(dir, 'out'))).sort()).toEqual([
        'findings.json',
        'junit.xml',
        'report.html',
        'results.sarif',
        'summary.md',
      ]);
      const summary = await readFile(stepSummary, 'utf8');
      expect(summary).toMatch(/^previous step\n## Conformance: ❌ FAILED/);
      expect(printed).toHaveLength(1);
      for (const text of [summary, ...printed, ...(await Promise.all(files.map((f) => readFile(f, 'utf8'))))])
        expect(text).not.toContain('hunter2-secret');

      const quiet: string[] = [];
      await writeReports(join(dir, 'quiet'), report, {
        out: (l) => quiet.push(l),
        env: { GITHUB_ACTIONS: 'false' },
        redact,
      });
      expect(quiet).toEqual([]);
    },
  );
});
