import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { parseBaseline } from '../reports/baseline-file.ts';
import { FINDINGS_SCHEMA_VERSION, jsonPath, SCHEMA_FILES } from '../reports/file-schemas.ts';
import { ROOT } from './support/cli.ts';
import { runInProcess } from './support/in-process.ts';

const CREATE_KEY = 'POST /v1/organizations/{organizationId}/keys';
const LIST_ALERTS = 'GET /api/v2/alerts';

/** A validator of a published schema compiled as a user would: a strict Ajv 2020 instance with ajv-formats. */
async function userValidator(file: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(await readFile(file, 'utf8')) as object);
}

async function capture(args: readonly string[]): Promise<{ code: number; err: string }> {
  const lines: string[] = [];
  const code = await main(args, {}, { out: () => undefined, err: (line) => lines.push(line) });
  return { code, err: lines.join('\n') };
}

describe('published formats', () => {
  it(
    'validates the findings.json of a real run, with ' + 'failures and a baseline, and the baseline it ' + 'updated',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'formats-'));
      const baseline = join(dir, 'baseline.json');
      await writeFile(
        baseline,
        JSON.stringify({
          version: 1,
          entries: [
            { rule: 'auth.required', operation: CREATE_KEY, reason: 'ticket 1' },
            { rule: 'envelope.shape', operation: LIST_ALERTS, reason: 'ticket 2', expires: '2020-01-31' },
          ],
        }),
      );
      const run = await runInProcess([
        '--reference-fault',
        'auth-any-secret',
        '--rules',
        'auth.required,envelope.shape',
        '--runs',
        '1',
        '--baseline',
        baseline,
      ]);
      expect(run.code).toBe(1);
      const findings = JSON.parse(await readFile(join(run.reportDir, 'findings.json'), 'utf8'));
      expect(
        findings.results.filter((r: { outcome: string; evidence?: unknown }) => r.outcome === 'failed' && r.evidence)
          .length,
      ).toBeGreaterThan(0);
      expect(findings.baseline.expired).toHaveLength(1);
      const validFindings = await userValidator(SCHEMA_FILES.findings);
      expect(validFindings(findings), JSON.stringify(validFindings.errors)).toBe(true);
      const version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
      expect(findings).toMatchObject({ toolVersion: version, schemaVersion: FINDINGS_SCHEMA_VERSION });
      expect(validFindings({ ...findings, results: [{ ...findings.results[0], outcome: 'maybe' }] })).toBe(false);

      const updated = await runInProcess([
        '--reference-fault',
        'auth-any-secret',
        '--rules',
        'auth.required',
        '--runs',
        '1',
        '--baseline',
        baseline,
        '--update-baseline',
      ]);
      expect(updated.code).not.toBe(2);
      const validBaseline = await userValidator(SCHEMA_FILES.baseline);
      const written = JSON.parse(await readFile(baseline, 'utf8'));
      expect(written.entries.length).toBeGreaterThan(1);
      expect(validBaseline(written), JSON.stringify(validBaseline.errors)).toBe(true);
    },
  );

  it('states the schema version findings.json carries', async () => {
    const schema = JSON.parse(await readFile(SCHEMA_FILES.findings, 'utf8'));
    expect(schema.properties.schemaVersion.const).toBe(FINDINGS_SCHEMA_VERSION);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('refuses a baseline entry whose operation no spec has, naming it, before any request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'formats-'));
    const baseline = join(dir, 'baseline.json');
    await writeFile(
      baseline,
      JSON.stringify({
        version: 1,
        entries: [{ rule: 'auth.required', operation: 'POST /v1/organizations/{organizationId}/key', reason: 'typo' }],
      }),
    );
    const result = await capture(['--report-dir', join(dir, 'out'), '--baseline', baseline]);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      `conformance: The baseline ${baseline} entry 0 (auth.required on POST ` +
        '/v1/organizations/{organizationId}/key) names operation "POST ' +
        '/v1/organizations/{organizationId}/key", which no spec has, so the entry would never apply: give ' +
        'the "METHOD /path" that findings.json names. Expected { "version": 1, "entries": [ { "rule", ' +
        '"operation", "operationId"?, "reason", "expires"?: "YYYY-MM-DD" } ] } ' +
        '(schemas/baseline.schema.json). [BASELINE_INVALID]',
    );
  });

  it('names the entry and the field that break the baseline schema', () => {
    const message = (json: unknown): string => {
      try {
        parseBaseline(json, 'known.json', undefined, [CREATE_KEY]);
      } catch (error) {
        return (error as Error).message;
      }
      return 'valid';
    };
    expect(message({ version: 1, entries: [{ rule: 'auth.required', operation: CREATE_KEY, reason: ' ' }] })).toMatch(
      /^The baseline known\.json entry 0 \(auth\.required on POST \S+\) has "reason" " ", not a non-empty string\./,
    );
    expect(message({ version: 1, entries: [7] })).toMatch(/^The baseline known\.json entry 0 is not an object\./);
    expect(message({ version: 1, entries: [], extra: true })).toMatch(
      /^The baseline known\.json has unknown field "extra"\./,
    );
    expect(
      message({
        $schema: './baseline.schema.json',
        version: 1,
        entries: [{ rule: 'auth.required', operation: CREATE_KEY, reason: 'r', expires: '2028-02-29' }],
      }),
    ).toBe('valid');
    expect(
      parseBaseline(
        {
          version: 1,
          entries: [{ rule: 'auth.required', operation: CREATE_KEY, operationId: 'createKey', reason: 'r' }],
        },
        'known.json',
      ).entries[0],
    ).toEqual({
      rule: 'auth.required',
      operation: CREATE_KEY,
      operationId: 'createKey',
      reason: 'r',
    });
  });

  it('names places of a file as JavaScript paths', () => {
    expect(jsonPath('')).toBe('');
    expect(jsonPath('/results/2/evidence')).toBe('results[2].evidence');
    expect(jsonPath('/stats/operations/GET ~1v1~1x/requests')).toBe('stats.operations["GET /v1/x"].requests');
  });
});
