import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { harSpoolPath } from '../evidence/har-spool.ts';
import type { RunReport } from '../run/run-report-types.ts';
import { writeHar } from '../reports/har-file.ts';
import { harValidator } from '../reports/har-validator.ts';
import { runInProcess, type InProcessRun } from './support/in-process.ts';
import { fixtureReport, fixtureResult } from './support/run-report-fixture.ts';

interface Har {
  log: { version: string; creator: { name: string }; _seed: number; entries: Entry[] };
}
interface Entry {
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text: string } };
  response: { status: number };
  time: number;
  timings: { wait: number };
  _operation: string;
  _verdicts: { rule: string; violations: number; outcome: string }[];
}

describe('--har FILE writes every exchange of the run as HAR 1.2, with the verdicts it gave evidence for', () => {
  let run: InProcessRun;
  let har: Har;
  let file: string;

  beforeAll(async () => {
    file = join(await mkdtemp(join(tmpdir(), 'conformance-har-')), 'run.har');
    run = await runInProcess(['--har', file, '--runs', '2', '--seed', '7', '--reference-fault', 'secret-in-header']);
    har = JSON.parse(await readFile(file, 'utf8')) as Har;
  }, 120_000);

  it('validates against the HAR JSON Schema (har-schema), one entry per request the run counted', () => {
    expect(run.code).toBe(1);
    expect(harValidator()(har)).toBeUndefined();
    expect(har.log.version).toBe('1.2');
    expect(har.log._seed).toBe(7);
    expect(har.log.entries).toHaveLength(run.report.stats.requests);
    expect(existsSync(harSpoolPath(file))).toBe(false);
    expect(run.output).toMatch(new RegExp(`HAR: .*run\\.har \\(${run.report.stats.requests} entries, \\d+ bytes\\)`));
  });

  it('gives each entry its timing and the verdict of every rule it was judged by, the failing one among them', () => {
    for (const entry of har.log.entries) {
      expect(entry.timings.wait).toBe(entry.time);
      expect(entry._verdicts.length, entry._operation).toBeGreaterThan(0);
    }
    const outcomes = new Map(run.report.results.map((r) => [`${r.rule} ${r.operation}`, r.outcome]));
    for (const verdict of har.log.entries.flatMap((e) => e._verdicts.map((v) => ({ ...v, operation: e._operation })))) {
      expect(verdict.outcome).toBe(outcomes.get(`${verdict.rule} ${verdict.operation}`));
    }
    const leaking = har.log.entries.filter((e) =>
      e._verdicts.some((v) => v.rule === 'secrets.absent' && v.violations > 0),
    );
    expect(leaking.length).toBeGreaterThan(0);
    expect(leaking.every((e) => e._verdicts.find((v) => v.rule === 'secrets.absent')?.outcome === 'failed')).toBe(true);
  });

  it('is redacted as every report is: credentials, secret fields and the secrets sent never appear', () => {
    const text = JSON.stringify(har);
    for (const entry of har.log.entries) {
      for (const header of entry.request.headers)
        if (header.name.toLowerCase() === 'authorization') expect(header.value).toBe('[redacted]');
    }
    // Booleans, so that a failure does not print the whole HAR.
    expect(/"(password|secretKey)":"(?!\[redacted\])/.test(text), 'a secret field shown').toBe(false);
    expect(/"x-source-secret"/i.test(text), 'the leaking header is in the HAR').toBe(true);
    expect(/"x-source-secret","value":"(?!\[redacted\])/i.test(text), 'the leaked secret shown').toBe(false);
  });
});

describe('--har: a path that cannot be written', () => {
  it('is exit 2 naming it, before any request, and the reports already in the report folder are kept', async () => {
    const reportDir = await mkdtemp(join(tmpdir(), 'conformance-har-'));
    await writeFile(join(reportDir, 'findings.json'), '{"kept":true}');
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const missing = join(reportDir, 'no-such-folder', 'run.har');
    expect(await main(['--report-dir', reportDir, '--har', missing], {}, io)).toBe(2);
    expect(lines.join('\n')).toContain(`--har ${missing} cannot be written (ENOENT)`);
    expect(await readFile(join(reportDir, 'findings.json'), 'utf8')).toBe('{"kept":true}');
    expect(await main(['--har', ''], {}, io)).toBe(2);
    expect(lines.at(-1)).toMatch(/--har needs a path/);
  });
});

describe('writeHar streams the spooled entries', () => {
  it('writes 10,000 entries, each with its verdicts, valid HAR, replacing an older file only when whole', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'conformance-har-')), 'big.har');
    await writeFile(file, 'an older HAR');
    const operation = 'GET /api/v2/alerts';
    const entry = {
      startedDateTime: '2026-01-01T00:00:00.000Z',
      time: 3,
      request: {
        method: 'GET',
        url: 'http://127.0.0.1/api/v2/alerts',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 2, mimeType: 'application/json', text: '{}' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 2,
      },
      cache: {},
      timings: { send: 0, wait: 3, receive: 0 },
      _operation: operation,
      _evidence: [{ rule: 'alerts.envelope', violations: 1 }],
    };
    const line = `${JSON.stringify(entry)}\n`;
    await writeFile(harSpoolPath(file), line.repeat(10_000));
    const report: RunReport = fixtureReport([fixtureResult('alerts.envelope', operation, 'failed')]);
    const written = await writeHar(file, report, (text) => text);
    expect(written.entries).toBe(10_000);
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Har;
    expect(harValidator()(parsed)).toBeUndefined();
    expect(parsed.log.entries).toHaveLength(10_000);
    expect(parsed.log.entries[9_999]?._verdicts).toEqual([
      { rule: 'alerts.envelope', violations: 1, outcome: 'failed' },
    ]);
    expect(harValidator()({ log: { ...parsed.log, entries: [{ ...parsed.log.entries[0], time: 'soon' }] } })).toMatch(
      /time/,
    );
  });
});
