import { describe, expect, it } from 'vitest';
import type { Finding, RuleResult } from '../evidence/finding.ts';
import { causesOf, EVIDENCE_PER_CAUSE, kindOf, normalisedPath } from '../reports/causes.ts';
import { ruleCatalogue } from '../reports/rule-catalogue.ts';
import { fixtureFinding, fixtureReport } from './support/run-report-fixture.ts';

const OPS = ['GET /a', 'POST /b', 'PATCH /c/{id}', 'GET /d'];

function finding(
  rule: string,
  operation: string,
  path: string,
  actual: unknown,
  overrides: Partial<Finding> = {},
): Finding {
  return fixtureFinding(rule, operation, { path, actual, expected: `expected at ${path}`, ...overrides });
}

function failed(rule: string, operation: string, findings: Finding[], violations = findings.length): RuleResult {
  return {
    rule,
    operation,
    operationId: `op${OPS.indexOf(operation)}`,
    outcome: 'failed',
    message: 'm',
    checks: violations,
    violations,
    findings,
  };
}

describe('causes of a run', () => {
  it('collapses one rule, path and kind of value over every operation, counting every violation', () => {
    const v1 = (op: string, i: number) =>
      finding('envelope.request-id-v4', op, '/requestId', `6e7a7484-b5b0-11e0-a422-d4d9ae24330${i}`);
    const results = OPS.slice(0, 3).map((op) => failed('envelope.request-id-v4', op, [v1(op, 1), v1(op, 2)], 40));
    const [cause, ...rest] = causesOf(fixtureReport(results), ruleCatalogue);
    expect(rest).toEqual([]);
    expect(cause).toMatchObject({
      rule: 'envelope.request-id-v4',
      path: '/requestId',
      kind: 'uuid v1',
      examples: 120,
      known: false,
      severity: 'contract',
    });
    expect(cause!.operations.map((o) => [o.operation, o.operationId, o.examples])).toEqual([
      ['GET /a', 'op0', 40],
      ['POST /b', 'op1', 40],
      ['PATCH /c/{id}', 'op2', 40],
    ]);
    expect(cause!.summary).toBe('`/requestId`: expected expected at /requestId, got a version-1 uuid');
    expect(cause!.info).toMatchObject({ basis: 'stated', doc: 'docs/rules.md#enveloperequest-id-v4' });
    expect(cause!.info!.sentence.length).toBeGreaterThan(20);
  });

  it('keeps apart kinds of wrong value and paths, normalising array indices', () => {
    const results = [
      failed('response.schema', 'GET /a', [
        finding('response.schema', 'GET /a', '/result/3/id', 7),
        finding('response.schema', 'GET /a', '/result/0/id', 8),
        finding('response.schema', 'GET /a', '/result/0/name', null),
      ]),
      failed('envelope.request-id-v4', 'GET /a', [finding('envelope.request-id-v4', 'GET /a', '/requestId', 'abc')]),
    ];
    const causes = causesOf(fixtureReport(results), ruleCatalogue);
    expect(causes.map((c) => `${c.rule} ${c.path} ${c.kind} ${c.examples}`).sort()).toEqual([
      'envelope.request-id-v4 /requestId string 1',
      'response.schema /result/*/id number 2',
      'response.schema /result/*/name null 1',
    ]);
  });

  it('joins a path under another path of the same rule into its cause', () => {
    const op = 'POST /b';
    const result = failed(
      'secrets.absent',
      op,
      [
        finding('secrets.absent', op, '/result/source/credentials', '[redacted]'),
        finding('secrets.absent', op, '/result/source/credentials/password', '[redacted]'),
        finding('secrets.absent', op, '/result/source/credentials/username', 'u'),
      ],
      9,
    );
    const causes = causesOf(fixtureReport([result]), ruleCatalogue);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ path: '/result/source/credentials', examples: 9, severity: 'secret' });
  });

  it('orders a leaked secret first, then accepted credentials, server errors, the rest; new before known', () => {
    const five = finding('errors.client-not-server', 'GET /d', '', 500);
    const server = { ...five, evidence: { ...five.evidence, response: { ...five.evidence.response!, status: 500 } } };
    const results = [
      failed('envelope.request-id-v4', 'GET /a', [finding('envelope.request-id-v4', 'GET /a', '/requestId', 'x')]),
      failed('envelope.request-id-v4', 'POST /b', [finding('envelope.request-id-v4', 'POST /b', '/requestId', 'x')]),
      failed('usage.period-limit', 'GET /a', [finding('usage.period-limit', 'GET /a', '', 200)]),
      failed('errors.client-not-server', 'GET /d', [server]),
      failed('auth.required', 'GET /d', [finding('auth.required', 'GET /d', '', 200)]),
      failed('auth.required', 'GET /a', [finding('auth.required', 'GET /a', '', 200)]),
      failed('secrets.absent', 'GET /a', [finding('secrets.absent', 'GET /a', 'header:x-secret', '[redacted]')]),
    ];
    const report = {
      ...fixtureReport(results),
      baseline: {
        known: [
          { rule: 'envelope.request-id-v4', operation: 'GET /a' },
          { rule: 'envelope.request-id-v4', operation: 'POST /b' },
        ],
      },
    };
    const causes = causesOf(report, ruleCatalogue);
    expect(causes.map((c) => [c.rule, c.severity, c.known])).toEqual([
      ['secrets.absent', 'secret', false],
      ['auth.required', 'credentials', false],
      ['errors.client-not-server', 'server', false],
      ['usage.period-limit', 'contract', false],
      ['envelope.request-id-v4', 'contract', true],
    ]);
    expect(causes[3]!.summary).toBe('the response: expected expected at , got HTTP 200');
  });

  it(`keeps at most ${EVIDENCE_PER_CAUSE} findings of evidence per cause, one per operation first`, () => {
    const results = OPS.map((op) =>
      failed(
        'envelope.request-id-v4',
        op,
        [1, 2].map((i) => finding('envelope.request-id-v4', op, '/requestId', `bad${i}`)),
      ),
    );
    const [cause] = causesOf(fixtureReport(results), ruleCatalogue);
    expect(cause!.evidence.map((f) => f.operation)).toEqual(OPS.slice(0, EVIDENCE_PER_CAUSE));
    const one = causesOf(fixtureReport([results[0]!]), ruleCatalogue)[0]!;
    expect(one.evidence.map((f) => f.actual)).toEqual(['bad1', 'bad2']);
  });

  it('names the kind of a value and normalises a path', () => {
    expect(normalisedPath('/result/items/12/roles/0')).toBe('/result/items/*/roles/*');
    expect(normalisedPath('header:X-Source-Secret')).toBe('header:x-source-secret');
    const timeout = fixtureFinding('transport.answers', 'GET /a', {
      evidence: {
        request: fixtureFinding('a', 'b').evidence.request,
        failure: { code: 'timeout', message: 't', durationMs: 1 },
      },
    });
    expect(kindOf(timeout)).toBe('timeout');
    expect(kindOf(finding('r', 'GET /a', '/x', undefined))).toBe('absent');
    expect(kindOf(finding('r', 'GET /a', '/x', '5CA7898F-1F14-4317-A543-9B48EAB9133F'))).toBe('uuid v4');
    expect(kindOf(finding('r', 'GET /a', '/x', [1]))).toBe('array');
  });
});
