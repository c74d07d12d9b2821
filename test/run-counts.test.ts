import { describe, expect, it } from 'vitest';
import { runInProcess } from './support/in-process.ts';

describe('the counts a run prints say what happened', () => {
  it('what the run left on the target: resources created and changes made, apart', async () => {
    const run = await runInProcess(['--runs', '1', '--seed', '6']);
    expect(run.code, run.output).toBe(0);
    const created = run.report.created.filter((c) => c.kind === 'created').length;
    const changed = run.report.created.filter((c) => c.kind === 'changed').length;
    expect(created).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
    expect(run.stdout).toContain(
      `On the target: ${created} resource(s) created, ${changed} change(s) made, listed in findings.json under ` +
        '"created".',
    );
    expect(run.stdout).not.toMatch(/Created on the target: \d+ resource/);
  }, 120_000);

  it('a suite that sent nothing says so and why, with no tick', async () => {
    const run = await runInProcess(['--api', 'alerts', '--runs', '1', '--seed', '6']);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toMatch(
      /^- keys: sent nothing, \d+ skipped: the management API is not under test: left out by --api alerts: nothing is/m,
    );
    expect(run.stdout).not.toMatch(/^✓ \w+: 0 passed/m);
    expect(run.stdout).toMatch(/^✓ alerts: \d+ passed, 0 failed/m);
  }, 120_000);
});
