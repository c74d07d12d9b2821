import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { NO_SECOND_IDENTITY } from '../suites/access-groups.ts';
import { runInProcess } from './support/in-process.ts';
import { otherTenantEnv, targetEnv } from './support/target-env.ts';

let target: ReferenceTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

// Every class, the service's stop and start among them: the reference is the test's own.
const FAST = ['--runs', '2', '--seed', '5', '--allow', 'read,write,disruptive'];
const ACCESS = ['access.path-scoped', 'access.other-tenant', 'access.read-only-fields'];

/** The verdicts of the access rules in a run, as `rule on operationId: outcome`. */
const accessVerdicts = (results: readonly { rule: string; operationId?: string; outcome: string }[]): string[] =>
  results.filter((r) => ACCESS.includes(r.rule)).map((r) => `${r.rule} on ${r.operationId}: ${r.outcome}`);

describe('the access rules against a configured target', () => {
  it(
    'without a second identity: access.other-tenant is skipped by choice, with the reason; ' + 'the run passes',
    async () => {
      target = await startReference();
      const run = await runInProcess(FAST, targetEnv(target));
      expect(run.code, run.output).toBe(0);
      const other = run.report.results.filter((r) => r.rule === 'access.other-tenant');
      expect(other.length).toBe(9);
      for (const result of other) {
        expect(result.outcome).toBe('skipped');
        expect(result.skipKind).toBe('by-choice');
        expect(result.message).toContain(NO_SECOND_IDENTITY);
      }
      expect(NO_SECOND_IDENTITY).toBe(
        'no second identity configured: set OTHER_ORGANIZATION_ID, OTHER_MANAGEMENT_KEY_ID, ' +
          'OTHER_MANAGEMENT_KEY_SECRET / OTHER_ALERTS_TOKEN',
      );
      // The summary escapes the characters Markdown reads (`OTHER\_ALERTS\_TOKEN`).
      const summary = await readFile(join(run.reportDir, 'summary.md'), 'utf8');
      expect(summary.replace(/\\(.)/g, '$1')).toContain(NO_SECOND_IDENTITY);
      expect(accessVerdicts(run.report.results).filter((v) => !v.startsWith('access.other-tenant'))).toEqual(
        accessVerdicts(run.report.results)
          .filter((v) => !v.startsWith('access.other-tenant'))
          .map((v) => v.replace(/: \w+$/, ': passed')),
      );
    },
  );

  it('with a second identity: the preflight checks it, and every access verdict passes', async () => {
    target = await startReference();
    const other = otherTenantEnv(target);
    expect(Object.keys(other).sort()).toEqual([
      'OTHER_ALERTS_TOKEN',
      'OTHER_MANAGEMENT_KEY_ID',
      'OTHER_MANAGEMENT_KEY_SECRET',
      'OTHER_ORGANIZATION_ID',
    ]);
    const run = await runInProcess(FAST, { ...targetEnv(target), ...other });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('other tenant');
    const verdicts = accessVerdicts(run.report.results);
    expect(verdicts.length).toBe(7 + 9 + 5);
    expect(verdicts.filter((v) => !v.endsWith(': passed'))).toEqual([]);
  });
});
