import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../evidence/finding.ts';
import { runCli, type CliResult } from './support/cli.ts';

interface Failure {
  rule: string;
  operation: string;
  operationId: string;
  message: string;
  evidence: Finding['evidence'];
  reproduction: Finding['reproduce'];
}

const FAULTS = ['--reference-fault', 'auth-missing-accepted', '--reference-fault', 'secret-in-header'];
const RULES = ['--rules', 'auth.required,secrets.absent,response.schema', '--runs', '3'];

/** The argv bash gives a curl command, with `curl` replaced by a function that prints its arguments. */
function curlArgv(command: string): string[] {
  expect(command).toMatch(/^curl /);
  const shell = spawnSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, MANAGEMENT_KEY_ID: 'KID', MANAGEMENT_KEY_SECRET: 'KSECRET', ALERTS_TOKEN: 'TOKEN' },
  });
  expect(shell.stderr).toBe('');
  expect(shell.status).toBe(0);
  return shell.stdout.split('\0').slice(0, -1);
}

/** Asserts that a curl command sends the failing request: its method, URL and body. */
function expectReproduces(curl: string, failure: Failure): void {
  const argv = curlArgv(curl);
  const { request } = failure.evidence;
  expect(argv[argv.indexOf('-X') + 1]).toBe(request.method);
  expect(argv).toContain(request.url);
  if (request.body !== undefined)
    expect(sameUnlessRedacted(JSON.parse(argv[argv.indexOf('--data-raw') + 1]!), JSON.parse(request.body))).toBe(true);
  if (request.auth === 'none') expect(argv).not.toContain('-u');
  if (request.auth === 'default') expect(argv.join(' ')).toMatch(/KID:KSECRET|Bearer TOKEN/);
}

/**
 * Whether a sent value equals the recorded one wherever the record is not `[redacted]` (the curl sends generated
 * secrets as sent).
 */
function sameUnlessRedacted(sent: unknown, recorded: unknown): boolean {
  if (recorded === '[redacted]') return true;
  if (recorded && typeof recorded === 'object' && sent && typeof sent === 'object') {
    const keys = Object.keys(recorded);
    return (
      keys.length === Object.keys(sent).length &&
      keys.every((k) =>
        sameUnlessRedacted((sent as Record<string, unknown>)[k], (recorded as Record<string, unknown>)[k]),
      )
    );
  }
  return sent === recorded;
}

/** Undoes the workflow-command escaping of a message. */
function unescapeCommand(text: string): string {
  return text.replace(/%(25|0A|0D)/g, (_m, code: string) => ({ '25': '%', '0A': '\n', '0D': '\r' })[code]!);
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('a run against a faulty target', () => {
  let dir: string;
  let run: CliResult;
  let stepSummary: string;
  let failures: Failure[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reports-cli-'));
    stepSummary = join(dir, 'step-summary.md');
    await writeFile(stepSummary, '');
    run = await runCli([...FAULTS, ...RULES, '--report-dir', join(dir, 'out')], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: stepSummary,
    });
    const doc = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
    failures = doc.results.filter((r: Failure & { outcome: string }) => r.outcome === 'failed');
  });

  it('exits 1 and fails both rules the faults break, and only those', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect([...new Set(failures.map((f) => f.rule))].sort()).toEqual(['auth.required', 'secrets.absent']);
  });

  it(
    'findings.json: each failure has redacted evidence and ' + 'a curl that sends the failing request, with the seed',
    async () => {
      const doc = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
      for (const failure of failures) {
        expect(failure.evidence.response?.status).toBe(200);
        expect(failure.reproduction.seed).toBe(doc.seed);
        expectReproduces(failure.reproduction.curl, failure);
      }
      const secretEcho = failures.find((f) => f.rule === 'secrets.absent')!;
      expect(secretEcho.evidence.response?.headers['x-source-secret']).toBe('[redacted]');
    },
  );

  it('report.html: each failure under its cause, with its operation named, a curl and the seed', async () => {
    const html = await readFile(join(dir, 'out', 'report.html'), 'utf8');
    const curls = [...html.matchAll(/<pre class="curl">([^<]*)<\/pre>/g)].map((m) => unescapeHtml(m[1]!));
    const causes = unescapeHtml(html).split('<details class="cause').slice(1);
    expect(causes.map((c) => /data-rule="([^"]+)"/.exec(c)![1])).toEqual(['secrets.absent', 'auth.required']);
    for (const failure of failures) {
      const cause = causes.find((c) => c.includes(`data-rule="${failure.rule}"`))!;
      expect(cause).toContain(`<code>${failure.operationId} (${failure.operation})</code>`);
      expect(curls).toContain(failure.reproduction.curl);
      expectReproduces(curls.find((c) => c === failure.reproduction.curl)!, failure);
    }
  });

  // What summary.md, the terminal summary and junit.xml of a faulty run hold is pinned whole by
  // test/rendered-output.test.ts; what follows checks what those snapshots do not: how they relate to this run.
  it('$GITHUB_STEP_SUMMARY: summary.md, appended as it is', async () => {
    const md = await readFile(join(dir, 'out', 'summary.md'), 'utf8');
    expect(await readFile(stepSummary, 'utf8')).toBe(`${md}\n`);
  });

  it(
    'GitHub annotations: one ::error per failure at its ' +
      'operation in the spec, with operation, message and ' +
      'curl',
    () => {
      const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
      expect(annotations).toHaveLength(failures.length);
      for (const failure of failures) {
        const head = /^::error file=openapi\/(management|alerts)\.yaml,line=\d+,col=\d+,title=/;
        const line = annotations.find((a) =>
          a
            .replace(head, '::error title=')
            .startsWith(`::error title=${failure.rule}::${failure.operationId} (${failure.operation}): `),
        );
        expect(line).toBeDefined();
        const curl = unescapeCommand(line!.split('%0AReproduce (seed ')[1]!.replace(/^\d+\): /, ''));
        expectReproduces(curl, failure);
      }
    },
  );

  it("terminal: the replay names the failing rules in place of the run's own --rules, in no colour", () => {
    expect(run.stdout).toMatch(
      new RegExp(
        String.raw`^ {2}npx conformance --seed \d+ --runs \d+ --reference-fault auth-missing-accepted ` +
          String.raw`.*--rules secrets\.absent,auth\.required$`,
        'm',
      ),
    );
    expect(run.stdout.includes('\u001b[')).toBe(false);
  });

  it('junit.xml: a test case per rule and operation, as many failed and skipped as findings.json counts', async () => {
    const xml = await readFile(join(dir, 'out', 'junit.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase [^>]*>([\s\S]*?)<\/testcase>/g)];
    const doc = JSON.parse(await readFile(join(dir, 'out', 'findings.json'), 'utf8'));
    expect(cases).toHaveLength(doc.results.length);
    expect(cases.filter(([, body]) => body!.includes('<failure'))).toHaveLength(failures.length);
    expect(cases.filter(([, body]) => body!.includes('<skipped'))).toHaveLength(doc.stats.skipped);
  });
});
