import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionArgs } from '../cli/action-step.ts';
import type { BaselinedRunReport } from '../reports/baseline-comparison.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { ROOT } from './support/cli.ts';
import { runInProcess } from './support/in-process.ts';
import { targetEnv } from './support/target-env.ts';
import { SKIP_UNPROBED } from './support/unprobed.ts';

interface WorkflowStep {
  readonly id?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, string>>;
}

/** The conformance step of the guide's "whole workflow": its `env` and its inputs, as written. */
async function guideStep(): Promise<Required<Pick<WorkflowStep, 'env' | 'with'>>> {
  const guide = await readFile(join(ROOT, 'docs', 'github-actions.md'), 'utf8');
  const whole = guide.split('## A whole workflow')[1]!;
  const yaml = /```yaml\n([\s\S]*?)```/.exec(whole)![1]!;
  const workflow = parse(yaml) as { jobs: Record<string, { steps: WorkflowStep[] }> };
  const step = Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .find((s) => s.id === 'conformance')!;
  return { env: step.env ?? {}, with: step.with ?? {} };
}

/** `${{ vars.X }}` and `${{ secrets.X }}` as a repository that defines them gives them. */
function evaluate(text: string, defined: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{\{\s*(?:vars|secrets)\.(\w+)\s*\}\}/g, (_, name: string) => defined[name] ?? '');
}

describe("the guide's whole workflow, copied as written, against a correct server", () => {
  let reference: ReferenceTarget;
  let scratch: string;

  beforeAll(async () => {
    reference = await startReference();
    scratch = await mkdtemp(join(tmpdir(), 'docs-workflow-'));
  });

  afterAll(async () => {
    await reference?.close();
  });

  it('passes on its first run, before the baseline file exists, and on its second, saying the file was not ' +
    'found', async () => {
    const step = await guideStep();
    // The repository's variables and secrets, for a staging deployment that the reference target stands in for.
    const defined = targetEnv(reference);
    const env = Object.fromEntries(Object.entries(step.env).map(([name, value]) => [name, evaluate(value, defined)]));
    const inputs = Object.fromEntries(
      Object.entries(step.with).map(([name, value]) => [name, evaluate(String(value), defined)]),
    );
    // The deployment's URLs are the reference target's; the baseline is the workspace's file; the rate is left out
    // (it changes when requests go, not what they find).
    const args = actionArgs({
      ...inputs,
      'management-url': reference.managementUrl,
      'alerts-url': reference.alertsUrl,
      baseline: join(scratch, inputs.baseline!),
      'max-rps': '',
    });
    expect(args).toContain('--require-judged');
    expect(inputs.backup).toBeUndefined();

    for (const run of [1, 2]) {
      const result = await runInProcess([...args, '--seed', String(run), '--runs', '2', ...SKIP_UNPROBED], env);
      expect(result.code, `run ${run}: ${result.output}`).toBe(0);
      expect(result.report.outcome).toBe('passed');
      expect(result.report.stats.notJudged).toBe(0);
      expect((result.report as BaselinedRunReport).baseline).toMatchObject({ absent: true, new: [], known: [] });
      expect(result.stdout.replace(/\n +/g, ' ')).toMatch(
        /^Baseline \S+conformance-baseline\.json: the file does not exist yet, so no failure is known/m,
      );
      // What the workflow leaves out on purpose (no backup, no other identity, the disruptive class) is skipped by
      // choice, and says why.
      const chosen = result.report.results.filter((r) => r.outcome === 'skipped');
      expect(chosen.length).toBeGreaterThan(0);
      expect(chosen.filter((r) => r.skipKind !== 'by-choice')).toEqual([]);
      expect(chosen.some((r) => r.operationId === 'getBackup' && /BACKUP_ID/.test(r.message))).toBe(true);
      expect(chosen.some((r) => r.rule === 'access.other-tenant')).toBe(true);
      const summary = await readFile(join(result.reportDir, 'summary.md'), 'utf8');
      expect(summary).toContain('Not found: the file does not exist yet, so no failure is known');
    }
  }, 240_000);

  it('one API only, no backup, no other identity: every skip is by choice and --require-judged passes', async () => {
    const { ALERTS_BASE_URL: _url, ALERTS_TOKEN: _token, BACKUP_ID: _backup, ...management } = targetEnv(reference);
    const result = await runInProcess(
      ['--require-judged', '--runs', '1', '--seed', '3', '--rules', 'envelope.shape,access.other-tenant,auth.required'],
      management,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.report.stats.notJudged).toBe(0);
    expect(result.report.stats.skippedByChoice).toBeGreaterThan(0);
    expect(result.stdout).not.toMatch(/could not be judged/);
    expect(result.stdout).toMatch(/skipped by your choice:/);
  }, 120_000);
});
