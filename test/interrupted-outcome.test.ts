import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCode } from '../cli/exit-code.ts';
import { applyBaseline, compareWithBaseline } from '../reports/baseline-comparison.ts';
import { fileValidator } from '../reports/file-schemas.ts';
import { findingsJson } from '../reports/findings-json.ts';
import { htmlReport } from '../reports/html-report.ts';
import { applyJudgedGate } from '../reports/judged-gate.ts';
import { markdownSummary } from '../reports/markdown-summary.ts';
import { interruptedReport } from '../reports/run-report.ts';
import { sarifLog } from '../reports/sarif.ts';
import { terminalSummary } from '../reports/terminal-summary.ts';
import { builtMain, runInProcess } from './support/in-process.ts';
import { fixtureReport, fixtureResult, OPERATIONS } from './support/run-report-fixture.ts';

describe('a run stopped by a signal', () => {
  // Every verdict it reached passed: what an interrupted run of a correct target looks like.
  const passedSoFar = fixtureReport([fixtureResult('auth.required', OPERATIONS.CREATE_KEY, 'passed')]);

  it('is interrupted in every report, never passed, and exits with its signal', () => {
    const report = interruptedReport(passedSoFar, 'SIGTERM');
    expect(report.outcome).toBe('interrupted');
    expect(exitCode(report)).toBe(143);
    expect(exitCode(interruptedReport(passedSoFar, 'SIGINT'))).toBe(130);
    expect(terminalSummary(report)).toMatch(/^INTERRUPTED by SIGTERM, before the run finished: 0 failed, 1 passed/m);
    expect(terminalSummary(report)).not.toMatch(/^PASSED/m);
    expect(markdownSummary(report).split('\n')[0]).toBe(
      '## Conformance: ⏹️ INTERRUPTED by SIGTERM, before the run finished',
    );
    expect(htmlReport(report)).toContain('<span class="verdict interrupted" id="verdict">INTERRUPTED by SIGTERM');
    const findings = JSON.parse(findingsJson(report));
    expect(findings).toMatchObject({ outcome: 'interrupted', interrupted: 'SIGTERM' });
    expect(fileValidator('findings')(findings)).toBeUndefined();
    const invocation = JSON.parse(sarifLog(report, new Map())).runs[0].invocations[0];
    expect(invocation).toMatchObject({ executionSuccessful: false, exitSignalName: 'SIGTERM' });
  });

  it('stays interrupted through a baseline and --require-judged', () => {
    const report = interruptedReport({ ...passedSoFar, stats: { ...passedSoFar.stats, notJudged: 3 } }, 'SIGINT');
    expect(applyJudgedGate(report, true).outcome).toBe('interrupted');
    const baseline = compareWithBaseline(report.results, { version: 1, entries: [] }, 'b.json', '2026-01-01');
    expect(applyBaseline(report, baseline).outcome).toBe('interrupted');
  });

  it('makes a merge of its shards interrupted too, with its exit code', async () => {
    const parts = [];
    for (const index of [1, 2])
      parts.push(
        await runInProcess(['--runs', '1', '--seed', '4', '--rules', 'envelope.shape', '--shard', `${index}/2`]),
      );
    expect(parts.map((part) => part.code)).toEqual([0, 0]);
    // The second shard as a Ctrl-C leaves it: its findings.json says so.
    const file = join(parts[1]!.reportDir, 'findings.json');
    const findings = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...findings, outcome: 'interrupted', interrupted: 'SIGINT' }));
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const merged = join(parts[0]!.reportDir, 'merged');
    const code = await builtMain(['merge', ...parts.map((part) => part.reportDir), '--report-dir', merged], {}, io);
    expect(code).toBe(130);
    expect(JSON.parse(await readFile(join(merged, 'findings.json'), 'utf8'))).toMatchObject({
      outcome: 'interrupted',
      interrupted: 'SIGINT',
    });
    expect(lines.join('\n')).toMatch(/^INTERRUPTED by SIGINT, before the run finished: 0 failed/m);
  }, 120_000);
});
