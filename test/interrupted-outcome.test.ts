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
});
