import { describe, expect, it } from 'vitest';
import { runInProcess } from './support/in-process.ts';

describe('the counts a run prints say what happened', () => {
  it('what the run left on the target: resources created and changes made, apart', async () => {
    const run = await runInProcess(['--runs', '1', '--seed', '6']);
    expect(run.code, run.output).toBe(0);
    const count = (kind: string): number =>
      run.report.created.filter((c) => c.kind === kind).reduce((n, c) => n + (c.times ?? 1), 0);
    const created = count('created');
    const changed = count('changed');
    expect(created).toBeGreaterThan(0);
    expect(changed).toBeGreaterThan(0);
    // The same write of the same resource, again and again (an alert put back), is one entry that says how often.
    const entries = run.report.created.map((c) => JSON.stringify([c.kind, c.id, c.operation, c.note]));
    expect(new Set(entries).size).toBe(entries.length);
    expect(run.report.created.some((c) => (c.times ?? 1) > 1)).toBe(true);
    expect(run.report.created.every((c) => c.times === undefined || c.times > 1)).toBe(true);
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
