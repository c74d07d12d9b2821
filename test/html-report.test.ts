import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))(`report.html in headless Chromium (skipped: ${CHROMIUM} is not installed; apt-get install chromium)`, () => {
  let browser: BrowserContext;
  let dir: string;
  let findings: { outcome: string; results: { rule: string; operation: string; outcome: string }[] };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'html-report-'));
    const run = await runCli(['--reference-fault', 'auth-missing-accepted', '--rules', 'auth.required,response.schema,envelope.shape', '--runs', '2', '--report-dir', join(dir, 'out')]);
    expect(run.code).toBe(1);
    findings = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
    const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, javaScriptEnabled: false, offline: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the verdict and a rules × operations matrix, offline and without script', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const url = pathToFileURL(join(dir, 'out', 'report.html')).href;
    await page.goto(url);

    expect(requested).toEqual([url]);
    expect(await page.locator('#verdict').innerText()).toBe('FAILED');

    const rules = [...new Set(findings.results.map((r) => r.rule))];
    const operations = [...new Set(findings.results.map((r) => r.operation))];
    const rows = page.locator('table.matrix tr[data-rule]');
    expect(await rows.count()).toBe(rules.length);
    expect(await page.locator('table.matrix tr').first().locator('th.op').count()).toBe(operations.length);

    const authRow = page.locator('table.matrix tr[data-rule="auth.required"]');
    const failedCells = authRow.locator('td[data-outcome="failed"]');
    const failedResults = findings.results.filter((r) => r.rule === 'auth.required' && r.outcome === 'failed');
    expect(failedResults.length).toBeGreaterThan(0);
    expect(await failedCells.count()).toBe(failedResults.length);
    expect(await failedCells.first().evaluate((td) => getComputedStyle(td).backgroundColor)).toBe('rgb(255, 235, 233)');
    expect(await page.locator('table.matrix tr[data-rule="response.schema"] td[data-outcome="failed"]').count()).toBe(0);

    await failedCells.first().locator('a').click();
    const target = new URL(page.url()).hash;
    expect(target).toMatch(/^#failure-\d+$/);
    const section = page.locator(target);
    await expect.poll(() => section.isVisible()).toBe(true);
    expect(await section.locator('h3').innerText()).toMatch(/^auth\.required on (GET|POST|PUT|PATCH|DELETE) \//);
    expect(await section.locator('pre.curl').first().innerText()).toMatch(/^curl -sS -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\//);
    await page.close();
  });
});
