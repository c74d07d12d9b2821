import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingsJson } from '../reports/findings-json.ts';
import { runCli } from './support/cli.ts';
import { fixtureReport, fixtureResult } from './support/run-report-fixture.ts';

const OLD = fixtureReport([
  fixtureResult('auth.required', 'GET /a', 'failed'),
  fixtureResult('auth.required', 'GET /b', 'failed'),
  fixtureResult('response.schema', 'GET /a', 'passed'),
  fixtureResult('response.schema', 'GET /b', 'passed'),
  fixtureResult('envelope.shape', 'GET /a', 'failed'),
]);
const NEW = fixtureReport([
  fixtureResult('auth.required', 'GET /a', 'failed'),
  fixtureResult('auth.required', 'GET /b', 'passed'),
  fixtureResult('response.schema', 'GET /a', 'failed', 'schema broke'),
  fixtureResult('response.schema', 'GET /b', 'skipped', 'not selected (--rules / --skip-rules)'),
  fixtureResult('envelope.shape', 'GET /a', 'skipped', 'not selected (--rules / --skip-rules)'),
  fixtureResult('keys.roles-enum', 'GET /c', 'failed', 'a rule that did not run before'),
]);

async function files(...reports: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'diff-'));
  return Promise.all(
    reports.map(async (text, i) => {
      const file = join(dir, `findings-${i}.json`);
      await writeFile(file, text);
      return file;
    }),
  );
}

describe('conformance diff', () => {
  it('lists new failures, fixed, still failing and newly skipped, and exits 1 on new failures', async () => {
    const [older, newer] = await files(findingsJson(OLD), findingsJson(NEW));
    const result = await runCli(['diff', older!, newer!]);
    expect(result.code).toBe(1);
    expect(result.stdout.replaceAll(older!, 'OLD').replaceAll(newer!, 'NEW')).toMatchInlineSnapshot(`
      "conformance diff: OLD -> NEW

      New failures (2):
        ✗ response.schema  GET /a: schema broke
        ✗ keys.roles-enum  GET /c: a rule that did not run before

      Fixed (1):
        ✓ auth.required  GET /b

      Still failing (1):
        ✗ auth.required  GET /a

      Newly skipped (2):
        - response.schema  GET /b: not selected (--rules / --skip-rules)
        - envelope.shape  GET /a: not selected (--rules / --skip-rules)

      2 new failure(s), 1 fixed, 1 still failing, 2 newly skipped.
      "
    `);
  });

  it('exits 0 when nothing new fails', async () => {
    const [older, newer] = await files(findingsJson(OLD), findingsJson(OLD));
    const result = await runCli(['diff', older!, newer!]);
    expect(result.stdout).toMatch(/^0 new failure\(s\), 0 fixed, 3 still failing, 0 newly skipped\./m);
    expect(result.code).toBe(0);
  });

  it.each([
    ['a missing file', null, /missing\.json cannot be read \(ENOENT\)/],
    ['a file that is not JSON', '{"results": [', /is not JSON/],
    [
      'a file without results',
      JSON.stringify({ ...JSON.parse(findingsJson(OLD)), results: undefined }),
      /findings-0\.json has no "results" \(an array\)/,
    ],
    [
      'a bad result',
      JSON.stringify({
        ...JSON.parse(findingsJson(OLD)),
        results: [JSON.parse(findingsJson(OLD)).results[0], { rule: 'b', outcome: 'maybe' }],
      }),
      /results\[1\] has no "operation" \(a non-empty string\)/,
    ],
    ['a file of another format', '{"outcome": "passed"}', /has no "schemaVersion" \(1\)/],
  ])('exits 2 with FINDINGS_INVALID on %s', async (_name, text, message) => {
    const [good] = await files(findingsJson(OLD));
    const bad = text === null ? join(tmpdir(), 'missing.json') : (await files(text))[0]!;
    const result = await runCli(['diff', good!, bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('[FINDINGS_INVALID]');
  });

  it('exits 2 when not given two files', async () => {
    const result = await runCli(['diff', 'only-one.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/diff takes two findings files/);
  });
});
