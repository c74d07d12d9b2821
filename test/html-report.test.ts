import { existsSync } from 'node:fs';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const THREE_FAULTS = [
  '--reference-fault',
  'request-id-v1',
  '--reference-fault',
  'broker-credentials-echoed',
  '--reference-fault',
  'usage-accepts-31-days',
];
const SCREEN = { width: 1400, height: 900 };
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The most a three-fault run's findings.json may take, and report.html before a fold is opened (in screens). 300 KB:
 * the neighbourhood's coverage (what odd input each operation was sent, and why not the rest) and the created list
 * of 664 requests' probes came to about 286 KB; the findings' evidence itself did not grow.
 */
const MOST = { findingsBytes: 300_000, screens: 3 };

let dir: string;
let findings: { outcome: string; results: { rule: string; operation: string; outcome: string }[] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'html-report-'));
  const run = await runCli([...THREE_FAULTS, '--seed', '20261121', '--report-dir', join(dir, 'out')]);
  expect(run.code).toBe(1);
  findings = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
}, 180_000);

it(`keeps the three-fault run's findings.json within ${MOST.findingsBytes / 1000} KB`, async () => {
  expect((await stat(join(dir, 'out', 'findings.json'))).size).toBeLessThanOrEqual(MOST.findingsBytes);
});

describe.skipIf(!existsSync(CHROMIUM))(
  `report.html in headless Chromium (skipped: ${CHROMIUM} is not installed; apt-get install chromium)`,
  () => {
    let browser: BrowserContext;

    beforeAll(async () => {
      const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        args: ARGS,
        headless: true,
        javaScriptEnabled: false,
        offline: true,
        viewport: SCREEN,
      });
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

      const idRow = page.locator('table.matrix tr[data-rule="envelope.request-id-v4"]');
      const failedCells = idRow.locator('td[data-outcome="failed"]');
      const failedResults = findings.results.filter(
        (r) => r.rule === 'envelope.request-id-v4' && r.outcome === 'failed',
      );
      expect(failedResults.length).toBe(7);
      expect(await failedCells.count()).toBe(failedResults.length);
      expect(await failedCells.first().evaluate((td) => getComputedStyle(td).backgroundColor)).toBe(
        'rgb(255, 235, 233)',
      );
      expect(await page.locator('table.matrix tr[data-rule="response.schema"] td[data-outcome="failed"]').count()).toBe(
        0,
      );

      await failedCells.nth(2).locator('a').click();
      const target = new URL(page.url()).hash;
      expect(target).toMatch(/^#cause-\d+-op-3$/);
      await expect.poll(() => page.locator(target).isVisible()).toBe(true);
      const cause = page.locator('details.cause', { has: page.locator(target) });
      expect(await cause.getAttribute('data-rule')).toBe('envelope.request-id-v4');
      expect(await cause.locator('summary').first().innerText()).toMatch(
        /7 operations, \d+ examples[\s\S]*got a version-1 uuid/,
      );
      expect(await cause.locator('pre.curl:visible').first().innerText()).toMatch(
        /^curl -sS -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\//,
      );
      expect(await cause.locator('blockquote').innerText()).toMatch(/requestId/);
      await page.close();
    });

    it(
      `fits the three-fault run in ${MOST.screens} screens of ${SCREEN.width}×${SCREEN.height} before a fold is ` +
        'opened, the worst cause first on the first screen',
      async () => {
        const page = await browser.newPage();
        await page.goto(pathToFileURL(join(dir, 'out', 'report.html')).href);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(height).toBeLessThanOrEqual(MOST.screens * SCREEN.height);
        expect(await page.locator('details[open]').count()).toBe(0);
        const causes = page.locator('details.cause');
        expect(await causes.evaluateAll((all) => all.map((d) => d.getAttribute('data-rule')))).toEqual([
          'secrets.absent',
          'envelope.request-id-v4',
          'usage.period-limit',
        ]);
        const first = await causes.first().boundingBox();
        expect(first!.y + first!.height).toBeLessThan(SCREEN.height);
        await page.screenshot({ path: join(dir, 'out', 'first-screen.png') });
        expect(await page.locator('footer').innerText()).toMatch(
          /^contract-conformance \d+\.\d+\.\d+; run started \d{4}-/,
        );
        const faults = 'request-id-v1, broker-credentials-echoed, usage-accepts-31-days';
        expect(await page.locator('p.target').innerText()).toMatch(
          new RegExp(`^Tested: the embedded reference target with faults ${faults}`),
        );
        await page.close();
      },
    );
  },
);
