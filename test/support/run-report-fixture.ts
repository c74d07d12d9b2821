import type { Finding, RuleResult } from '../../evidence/finding.ts';
import type { RunReport } from '../../run/run-report-types.ts';

const CREATE_KEY = 'POST /v1/organizations/{organizationId}/keys';
const GET_BACKUP = 'GET /v1/organizations/{organizationId}/services/{serviceId}/backups/{backupId}';
const LIST_ALERTS = 'GET /api/v2/alerts';

/** A finding with redacted evidence, as the suites record it. */
export function fixtureFinding(rule: string, operation: string, overrides: Partial<Finding> = {}): Finding {
  const url = 'http://127.0.0.1:4010/v1/organizations/00000000-0000-4000-8000-000000000000/keys';
  return {
    rule,
    operation,
    probe: 'no credentials',
    path: '',
    expected: 'rejection (4xx) of no credentials',
    actual: 200,
    evidence: {
      request: {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        auth: 'none',
        params: {},
        query: {},
        body: '{"name":"k","credentials":"[redacted]"}',
      },
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: '{"status":200,"result":{"keySecret":"[redacted]"}}',
        durationMs: 3,
      },
    },
    reproduce: {
      curl:
        `curl -sS -i -X POST '${url}' -H 'content-type: application/json' --data-raw ` +
        `'{"name":"k","credentials":"[redacted]"}'`,
      seed: 42,
      example: { property: 'keys/keyCreateBody', seed: 7, index: 3 },
      command: `npx conformance --seed 42 --rules ${rule}`,
    },
    ...overrides,
  };
}

/** A rule result; failed ones carry one finding. */
export function fixtureResult(
  rule: string,
  operation: string,
  outcome: RuleResult['outcome'],
  message = outcome === 'skipped' ? 'probes of class write are not allowed (--allow read)' : `${outcome} message`,
): RuleResult {
  const findings = outcome === 'failed' ? [fixtureFinding(rule, operation)] : [];
  return {
    rule,
    operation,
    outcome,
    message,
    checks: outcome === 'skipped' ? 0 : 4,
    violations: findings.length,
    findings,
  };
}

/** A small, deterministic run report: one failure, passes, a skip, a created key, a skipped group. */
export function fixtureReport(results: readonly RuleResult[] = defaultResults()): RunReport {
  const count = (o: string): number => results.filter((r) => r.outcome === o).length;
  return {
    outcome: count('failed') > 0 ? 'failed' : 'passed',
    seed: 42,
    startedAt: '2025-01-02T03:04:05.000Z',
    durationMs: 1234,
    target: {
      management: {
        baseUrl: 'http://127.0.0.1:4010',
        organizationId: '00000000-0000-4000-8000-000000000000',
        serviceId: '00000000-0000-4000-8000-000000000001',
      },
      alerts: { baseUrl: 'http://127.0.0.1:4020' },
      reference: { faults: ['auth-missing-accepted'], modes: [] },
    },
    settings: { runs: 8, allow: ['read'] },
    stats: {
      requests: 12,
      rateLimited: 0,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      skippedByChoice: 0,
      notJudged: count('skipped'),
      operations: {
        [CREATE_KEY]: { requests: 8, statuses: { '200': 5, '401': 3 } },
        [LIST_ALERTS]: { requests: 4, statuses: { '200': 4 } },
      },
    },
    results,
    incidents: [],
    created: [
      {
        kind: 'created',
        id: '11111111-1111-4111-8111-111111111111',
        operation: 'createKey',
        note: 'disabled, expires within a day',
      },
    ],
    skippedGroups: [{ suite: 'backups', group: 'read backup', reason: 'BACKUP_ID is not set' }],
    errors: [],
    replay: 'npx conformance --seed 42 --reference-fault auth-missing-accepted',
  };
}

function defaultResults(): RuleResult[] {
  return [
    fixtureResult(
      'auth.required',
      CREATE_KEY,
      'failed',
      '1 violation(s) in 4 check(s): the response: expected rejection (4xx) of no credentials, got 200 ' +
        '(probe: no credentials)',
    ),
    fixtureResult('auth.required', LIST_ALERTS, 'passed'),
    fixtureResult('response.schema', CREATE_KEY, 'passed'),
    fixtureResult('response.schema', LIST_ALERTS, 'passed'),
    fixtureResult('backups.identity', GET_BACKUP, 'skipped', 'BACKUP_ID is not set'),
  ];
}

/** Operation keys the fixture uses. */
export const OPERATIONS = Object.freeze({ CREATE_KEY, GET_BACKUP, LIST_ALERTS });
