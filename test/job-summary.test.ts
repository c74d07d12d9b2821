import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../evidence/finding.ts';
import { ANNOTATIONS_PER_KIND, githubAnnotations } from '../reports/github-annotations.ts';
import { JOB_SUMMARY_BUDGET, jobSummary, STEP_SUMMARY_LIMIT } from '../reports/job-summary.ts';
import { RULES } from '../rules/index.ts';
import { fixtureFinding, fixtureReport } from './support/run-report-fixture.ts';

const GITHUB = { GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'team/service', GITHUB_RUN_ID: '7' };

/**
 * Every rule failing on each of `operations` operations, each with `paths` findings at distinct places and a body of
 * `bodyBytes`.
 */
function everyRuleFailing(operations: number, paths: number, bodyBytes: number): RuleResult[] {
  const body = JSON.stringify({ name: 'x'.repeat(bodyBytes) });
  return RULES.flatMap((rule) =>
    Array.from({ length: operations }, (_, o) => {
      const operation = `POST /v1/organizations/{organizationId}/resource${o}/{id}`;
      const findings = Array.from({ length: paths }, (_, p) =>
        fixtureFinding(rule.id, operation, {
          path: `/result/field${p}`,
          expected: `a value that the contract allows at field ${p} ${'and more words '.repeat(20)}`,
          reproduce: {
            ...fixtureFinding(rule.id, operation).reproduce,
            curl: `curl -sS -X POST 'http://t.test/r${o}' --data-raw '${body}'`,
          },
        }),
      );
      return {
        rule: rule.id,
        operation,
        operationId: `op${o}`,
        outcome: 'failed' as const,
        message: `failed: ${'m'.repeat(600)}`,
        checks: 9,
        violations: 40,
        findings,
      };
    }),
  );
}

describe('the job summary', () => {
  it('stays within half of GitHub’s 1 MiB when every rule fails everywhere with long evidence, worst first', () => {
    const results = everyRuleFailing(9, 4, 4000);
    const report = { ...fixtureReport(results), outcome: 'failed' as const };
    const summary = jobSummary(report, GITHUB);
    expect(JOB_SUMMARY_BUDGET).toBeLessThan(STEP_SUMMARY_LIMIT);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(JOB_SUMMARY_BUDGET);
    expect(summary).toMatch(new RegExp(`^## Conformance: ❌ FAILED\n\n\\*\\*${results.length} failed\\*\\*`));
    expect(summary).toContain("[this run's artifacts](https://github.example/team/service/actions/runs/7#artifacts)");
    expect(summary.indexOf('### Causes of failure, worst first')).toBeGreaterThan(0);
    // The worst cause comes first: a leaked secret, then accepted credentials.
    const causes = [...summary.matchAll(/^- \*\*`([^`]+)`\*\*/gm)].map((m) => m[1]);
    expect(causes.slice(0, 2)).toEqual(['secrets.absent', 'secrets.absent']);
    expect(summary).toMatch(/more in findings\.json/);
  });

  it('cuts what still does not fit, and says so', () => {
    const errors = Array.from({ length: 4000 }, (_, i) => `harness error ${i}: ${'e'.repeat(300)}`);
    const summary = jobSummary({ ...fixtureReport(), outcome: 'error', errors }, GITHUB);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(JOB_SUMMARY_BUDGET);
    expect(summary).toMatch(
      /cut to fit the job summary: findings\.json and summary\.md in the reports hold all of it\.\n$/,
    );
  });

  it('has no links when GitHub’s variables do not say where the run is', () => {
    expect(jobSummary(fixtureReport(), {})).not.toContain('artifacts');
  });
});

describe('GitHub annotations', () => {
  it('are at most 10 of a kind, worst first, the tenth counting the rest', () => {
    const results = everyRuleFailing(2, 1, 10);
    const lines = githubAnnotations({ ...fixtureReport(results), outcome: 'failed' });
    expect(lines).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(lines[0]).toMatch(/^::error title=secrets\.absent::/);
    expect(lines[1]).toMatch(/^::error title=secrets\.absent::/);
    // Then accepted credentials: the first rule of that severity in the table.
    const credentials = RULES.find((rule) => rule.severity === 'credentials')!.id;
    expect(lines[2]).toMatch(new RegExp(`^::error title=${credentials.replaceAll('.', '\\.')}::`));
    expect(lines[9]).toBe(
      `::error title=conformance%3A ${results.length - 9} more::${results.length - 9} more errors than GitHub shows ` +
        'as annotations: the job summary, summary.md and results.sarif list every one.',
    );
  });

  it('point at the operation in the spec when it is inside the checkout', () => {
    const results = everyRuleFailing(1, 1, 10).slice(0, 1);
    const operation = results[0]!.operation;
    const lines = githubAnnotations(
      { ...fixtureReport(results), outcome: 'failed' },
      new Map([[operation, { file: 'openapi/management.yaml', line: 12, column: 5 }]]),
    );
    expect(lines[0]).toMatch(/^::error file=openapi\/management\.yaml,line=12,col=5,title=/);
    const outside = githubAnnotations(
      { ...fixtureReport(results), outcome: 'failed' },
      new Map([[operation, { file: '/opt/x/openapi/management.yaml', line: 12, column: 5 }]]),
    );
    expect(outside[0]).toMatch(/^::error title=/);
  });
});
