import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Manifest, manifestDigest } from '../cli/bundle-manifest.ts';
import { main } from '../cli/main.ts';
import { schemaProblem } from '../reports/file-schemas.ts';
import { TOOL } from '../reports/tool-version.ts';
import { runInProcess, type InProcessRun } from './support/in-process.ts';

/** Runs `conformance ARGS` in this process: its exit code and every line it printed. */
async function command(args: readonly string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, {}, { out: (line) => lines.push(line), err: (line) => lines.push(line) });
  return { code, lines };
}

async function copyOf(dir: string): Promise<string> {
  const copy = join(await mkdtemp(join(tmpdir(), 'conformance-bundle-')), 'copy');
  await cp(dir, copy, { recursive: true });
  return copy;
}

describe('--bundle DIR and conformance verify', () => {
  let run: InProcessRun;
  let bundle: string;
  let manifest: Manifest;

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'conformance-bundle-'));
    bundle = join(root, 'evidence');
    run = await runInProcess(['--runs', '2', '--seed', '11', '--har', join(root, 'run.har'), '--bundle', bundle]);
    manifest = JSON.parse(await readFile(join(bundle, 'manifest.json'), 'utf8')) as Manifest;
  }, 120_000);

  it('holds the reports, the HAR and a manifest valid against schemas/manifest.schema.json', async () => {
    expect(run.code).toBe(0);
    expect(schemaProblem('manifest', manifest)).toBeUndefined();
    expect((await readdir(bundle)).sort()).toEqual([
      'findings.json',
      'junit.xml',
      'manifest.json',
      'report.html',
      'results.sarif',
      'summary.md',
      'traffic.har',
    ]);
    for (const file of manifest.files) {
      expect(
        createHash('sha256')
          .update(await readFile(join(bundle, file.path)))
          .digest('hex'),
        file.path,
      ).toBe(file.sha256);
    }
    expect(manifest.tool.version).toBe(TOOL.version);
    expect(Object.keys(manifest.specs).sort()).toEqual(['alerts', 'management']);
    expect(manifest.run.seed).toBe(11);
    expect(manifest.run.verdicts).toEqual({
      passed: run.report.stats.passed,
      failed: run.report.stats.failed,
      skipped: run.report.stats.skipped,
      skippedByChoice: run.report.stats.skippedByChoice,
      notJudged: run.report.stats.notJudged,
    });
    expect(Object.keys(manifest.run.target.management ?? {}).sort()).toEqual(
      [
        'baseUrl',
        'organizationId',
        'serviceId',
        ...(manifest.run.target.management?.backupId ? ['backupId'] : []),
      ].sort(),
    );
    expect(JSON.stringify(manifest)).not.toMatch(/secret|token|password/i);
  });

  it('verify: exit 0 on the bundle as written', async () => {
    const { code, lines } = await command(['verify', bundle]);
    expect(lines).toEqual([
      `conformance verify: ${bundle} is intact: 6 file(s) match their SHA-256 and their schemas. ` +
        'Tamper-evident, not signed.',
    ]);
    expect(code).toBe(0);
  });

  it('verify: one byte changed is exit 1 naming the file', async () => {
    const copy = await copyOf(bundle);
    const file = join(copy, 'summary.md');
    const bytes = await readFile(file);
    bytes[10] = bytes[10] === 0x41 ? 0x42 : 0x41;
    await writeFile(file, bytes);
    const { code, lines } = await command(['verify', copy]);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(
      /^conformance verify: summary\.md changed: SHA-256 [0-9a-f]{64} \(\d+ bytes\), the manifest says [0-9a-f]{64}/,
    );
    expect(lines.at(-1)).toBe(`conformance verify: ${copy} is NOT intact: 1 problem(s) in 6 file(s) listed.`);
  });

  it('verify: a file missing, a file added, or the manifest edited is exit 1 naming it', async () => {
    const copy = await copyOf(bundle);
    await rm(join(copy, 'junit.xml'));
    await writeFile(join(copy, 'extra.txt'), 'added');
    const edited = {
      ...manifest,
      run: {
        ...manifest.run,
        verdicts: { ...manifest.run.verdicts, failed: 0, passed: manifest.run.verdicts.passed + 1 },
      },
    };
    await writeFile(join(copy, 'manifest.json'), JSON.stringify(edited));
    const { code, lines } = await command(['verify', copy]);
    expect(code).toBe(1);
    expect(lines).toContain('conformance verify: junit.xml is missing');
    expect(lines).toContain('conformance verify: extra.txt is not in manifest.json: it was added');
    expect(lines).toContain('conformance verify: manifest.json changed: its digest does not match its content');
  });

  it(
    'verify: a file that matches its hash but not its ' + 'schema is named (a manifest rewritten with the file)',
    async () => {
      const copy = await copyOf(bundle);
      const findings = JSON.stringify({ outcome: 'passed' });
      await writeFile(join(copy, 'findings.json'), findings);
      const files = manifest.files.map((f) =>
        f.path === 'findings.json'
          ? { ...f, bytes: findings.length, sha256: createHash('sha256').update(findings).digest('hex') }
          : f,
      );
      const rewritten = { ...manifest, files, digest: '' };
      await writeFile(join(copy, 'manifest.json'), JSON.stringify({ ...rewritten, digest: manifestDigest(rewritten) }));
      const { code, lines } = await command(['verify', copy]);
      expect(code).toBe(1);
      expect(lines[0]).toMatch(/^conformance verify: findings\.json does not match its schema: has no "schemaVersion"/);
    },
  );

  it('verify: a bundle of another tool version or spec digest says so, and is still checked', async () => {
    const copy = await copyOf(bundle);
    const other = {
      ...manifest,
      tool: { ...manifest.tool, version: '0.0.1' },
      specs: { ...manifest.specs, alerts: '0'.repeat(64) },
      digest: '',
    };
    await writeFile(join(copy, 'manifest.json'), JSON.stringify({ ...other, digest: manifestDigest(other) }));
    const { code, lines } = await command(['verify', copy]);
    expect(code).toBe(0);
    expect(lines).toContain(`conformance verify: note: made by ${TOOL.name} 0.0.1; this is ${TOOL.version}`);
    expect(
      lines.some((line) =>
        line.startsWith(
          `conformance verify: note: judged by other specs than this installation's: alerts ${'0'.repeat(64)}, here `,
        ),
      ),
    ).toBe(true);
  });

  it('verify: a folder that is not a bundle is exit 2 naming it', async () => {
    const { code, lines } = await command(['verify', run.reportDir]);
    expect(code).toBe(2);
    expect(lines).toEqual([
      `conformance: ${run.reportDir} is not a bundle: it has no readable manifest.json (ENOENT). [BUNDLE_INVALID]`,
    ]);
    const broken = await copyOf(bundle);
    await writeFile(join(broken, 'manifest.json'), '{"schemaVersion":1}');
    expect((await command(['verify', broken])).lines[0]).toMatch(/is not a bundle: manifest\.json has no "tool"/);
  });

  it(
    'bundle DIR after a run gathers the same files; a ' + 'folder that is not empty is exit 2 and left as it ' + 'was',
    async () => {
      const dir = join(await mkdtemp(join(tmpdir(), 'conformance-bundle-')), 'later');
      const written = await command(['bundle', dir, '--report-dir', run.reportDir]);
      expect(written.code).toBe(0);
      expect((await command(['verify', dir])).code).toBe(0);
      const again = await command(['bundle', dir, '--report-dir', run.reportDir]);
      expect(again.code).toBe(2);
      expect(again.lines[0]).toContain(`the bundle folder ${dir} is not empty`);
      expect((await command(['verify', dir])).code).toBe(0);
      const refused = await command(['--bundle', bundle, '--report-dir', run.reportDir]);
      expect(refused.code).toBe(2);
      expect(refused.lines[0]).toContain(`--bundle ${bundle} is not empty`);
    },
  );
});
