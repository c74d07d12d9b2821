import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { Log, Result } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleCatalogue } from '../reports/rule-catalogue.ts';
import { FINGERPRINT_KEY } from '../reports/sarif.ts';
import { ROOT, runCli } from './support/cli.ts';

const require = createRequire(import.meta.url);

/** The SARIF 2.1.0 schema (OASIS's final text, rtm.5), as Microsoft's jest-sarif package ships it. */
const SCHEMA_FILE = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

/**
 * Microsoft's SARIF multitool, a .NET program its npm package ships for this platform (about 100 MB): no dependency of
 * the project, so its check runs only where someone installed it (`npm install --no-save @microsoft/sarif-multitool`).
 */
const MULTITOOL = join(ROOT, 'node_modules', '@microsoft', 'sarif-multitool', 'bin.js');

const FAULTS = ['--reference-fault', 'auth-missing-accepted', '--reference-fault', 'keys-default-expiry'];
const RULES = ['--rules', 'auth.required,keys.never-expires,response.schema', '--runs', '3'];

async function sarifOf(
  dir: string,
  seed: number,
): Promise<{ log: Log; findings: { results: { rule: string; operation: string; outcome: string }[] } }> {
  const run = await runCli([...FAULTS, ...RULES, '--seed', String(seed), '--report-dir', dir]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(1);
  return {
    log: JSON.parse(await readFile(join(dir, 'results.sarif'), 'utf8')) as Log,
    findings: JSON.parse(await readFile(join(dir, 'findings.json'), 'utf8')),
  };
}

describe('results.sarif of a run against a faulty target', () => {
  let scratch: string;
  let first: Awaited<ReturnType<typeof sarifOf>>;
  let second: Awaited<ReturnType<typeof sarifOf>>;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'sarif-'));
    [first, second] = await Promise.all([sarifOf(join(scratch, 'a'), 11), sarifOf(join(scratch, 'b'), 12)]);
  });

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('is valid against the SARIF 2.1.0 JSON Schema (Ajv)', async () => {
    // The schema is draft-04; strict mode would refuse its `default`s beside `$ref`, and one of its patterns is not
    // a valid Unicode regular expression (a stray `]`), so patterns are compiled as the schema's authors did.
    const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(SCHEMA_FILE, 'utf8')));
    expect(validate(first.log), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
  });

  it.skipIf(!existsSync(MULTITOOL))("passes Microsoft's multitool `validate` with no error", async () => {
    const out = join(scratch, 'validation.sarif');
    const run = spawnSync(
      process.execPath,
      [MULTITOOL, 'validate', join(scratch, 'a', 'results.sarif'), '--output', out],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const validation = JSON.parse(await readFile(out, 'utf8')) as Log;
    const problems = (validation.runs[0]?.results ?? []).filter((r) => r.level === 'error');
    expect(problems.map((r) => r.message.text)).toEqual([]);
  });

  it('holds one result per failed rule × operation, its rule described from the rule table', () => {
    const failed = first.findings.results.filter((r) => r.outcome === 'failed');
    const run = first.log.runs[0]!;
    const results = run.results ?? [];
    expect(results.map((r) => `${r.ruleId} ${operationOf(r)}`).sort()).toEqual(
      failed.map((r) => `${r.rule} ${r.operation}`).sort(),
    );
    expect(new Set(results.map((r) => r.ruleId))).toEqual(new Set(['auth.required', 'keys.never-expires']));
    for (const result of results) {
      const rule = run.tool.driver.rules![result.ruleIndex!]!;
      const info = ruleCatalogue(result.ruleId!)!;
      expect(rule.id).toBe(result.ruleId);
      expect(rule.shortDescription?.text).toBe(info.title);
      expect(rule.fullDescription?.text).toBe(info.sentence);
      expect(rule.help?.text).toContain(info.probedBy);
    }
  });

  it('locates each result at its operation in openapi/*.yaml: the method key at that line and column', async () => {
    for (const result of first.log.runs[0]!.results ?? []) {
      const physical = result.locations![0]!.physicalLocation!;
      const uri = physical.artifactLocation!.uri!;
      expect(uri).toMatch(/^openapi\/(management|alerts)\.yaml$/);
      // GitHub's code scanning places a result by a relative URI under %SRCROOT%.
      expect(physical.artifactLocation!.uriBaseId).toBe('%SRCROOT%');
      const lines = (await readFile(join(ROOT, uri), 'utf8')).split('\n');
      const { startLine, startColumn } = physical.region!;
      const [method, path] = operationOf(result).split(' ');
      expect(lines[startLine! - 1]!.slice(startColumn! - 1)).toMatch(new RegExp(`^${method!.toLowerCase()}:`));
      const pathLine = lines
        .slice(0, startLine! - 1)
        .reverse()
        .find((l) => /^ {2}\/\S*:\s*$/.test(l));
      expect(pathLine?.trim()).toBe(`${path}:`);
    }
  });

  it('gives a failure the same fingerprint in another run (another seed), and distinct failures distinct ones', () => {
    const prints = (log: Log): Map<string, string> =>
      new Map(
        (log.runs[0]!.results ?? []).map((r) => [
          `${r.ruleId} ${operationOf(r)}`,
          r.partialFingerprints![FINGERPRINT_KEY]!,
        ]),
      );
    const a = prints(first.log);
    const b = prints(second.log);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [key, print] of a) expect(b.get(key), key).toBe(print);
    expect(new Set(a.values()).size).toBe(a.size);
  });
});

function operationOf(result: Result): string {
  return String(result.properties?.operation);
}
