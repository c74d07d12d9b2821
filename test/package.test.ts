import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';
import { UNPROBED } from './support/unprobed.ts';
import type { ReferenceTarget } from '../reference/server.ts';
import { otherTenantEnv } from './support/target-env.ts';

/** What a finished process printed and returned. */
interface Exec {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** This process's environment without any target setting, as on a machine where none is configured. */
const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID|GITHUB_)/.test(k),
  ),
);

/** Runs a command to its end (within `timeoutMs`), never throwing on a non-zero exit. */
function exec(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<Exec> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...CLEAN_ENV, ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`, { cause: error }));
        else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('the published package', () => {
  let scratch: string;
  let installed: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'conformance-package-'));
    // The build test/fresh-build.ts made is packed as it is: `prepare` would build it a second time.
    const pack = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], ROOT);
    expect(pack.code, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    const project = join(scratch, 'project');
    await mkdir(project);
    await writeFile(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' })}\n`,
    );
    const install = await exec('npm', ['install', '--no-audit', '--no-fund', join(scratch, filename)], project);
    expect(install.code, install.stderr).toBe(0);
    installed = join(project, 'node_modules', 'contract-conformance');
    // Whatever a tool caches goes to a folder of this test.
    env = { XDG_CACHE_HOME: join(scratch, 'cache') };
  }, 240_000);

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('ships what runs and nothing else', async () => {
    const files = await filesUnder(installed);
    const tops = [...new Set(files.map((f) => f.split('/')[0]))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'openapi', 'package.json', 'schemas']);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    // What the command's run thread loads, bundled by the build into one module, and that thread's own file
    // (cli/early-worker.ts).
    expect(files).toContain('dist/suites/bundle.js');
    expect(files).toContain('dist/cli/run-worker.js');
    expect(files).toContain('dist/vitest.js');
    expect(files).toContain('dist/vitest.d.ts');
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('lets a project resolve the published schemas', async () => {
    const result = await exec(
      process.execPath,
      ['-e', "console.log(require.resolve('contract-conformance/schemas/baseline.schema.json'))"],
      join(installed, '..', '..'),
      env,
    );
    expect(result).toMatchObject({ code: 0, stdout: `${join(installed, 'schemas', 'baseline.schema.json')}\n` });
  });

  it('prints its version with `npx conformance --version`', async () => {
    const result = await exec('npx', ['conformance', '--version'], join(installed, '..', '..'), env);
    expect(result).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('runs the embedded reference target with `npx conformance`, writing nothing inside the package', async () => {
    const before = await filesUnder(installed);
    const reportDir = join(scratch, 'report');
    const result = await exec(
      'npx',
      ['conformance', '--runs', '2', '--report-dir', reportDir],
      join(installed, '..', '..'),
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/PASSED: 0 failed, \d+ passed/);
    const findings = JSON.parse(await readFile(join(reportDir, 'findings.json'), 'utf8')) as {
      outcome: string;
      toolVersion: string;
    };
    expect(findings).toMatchObject({ outcome: 'passed', toolVersion: VERSION });
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(await readFile(join(installed, 'schemas', 'findings.schema.json'), 'utf8')) as object,
    );
    expect(validate(findings), JSON.stringify(validate.errors)).toBe(true);
    expect(await filesUnder(installed)).toEqual(before);
  });

  it("registers the suites in a project's own vitest run with `contract-conformance/vitest`: every rule a " +
    "passed test, and a fault's rule a failed one", async () => {
    const project = join(installed, '..', '..');
    // The example of docs/vitest.md, as a project would write it.
    await writeFile(
      join(project, 'vitest.config.ts'),
      `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['conformance/**/*.test.ts'],
    reporters: ['default', 'junit'],
    outputFile: { junit: 'reports/conformance-junit.xml' },
  },
});
`,
    );
    await mkdir(join(project, 'conformance'), { recursive: true });
    await writeFile(
      join(project, 'conformance', 'api.test.ts'),
      `import { conformanceSuites } from 'contract-conformance/vitest';

await conformanceSuites({
  managementUrl: process.env.MANAGEMENT_BASE_URL,
  managementKeyId: process.env.MANAGEMENT_KEY_ID,
  managementKeySecret: process.env.MANAGEMENT_KEY_SECRET,
  organization: process.env.ORGANIZATION_ID,
  service: process.env.SERVICE_ID,
  backup: process.env.BACKUP_ID,
  alertsUrl: process.env.ALERTS_BASE_URL,
  alertsToken: process.env.ALERTS_TOKEN,
  managementOtherOrganizationId: process.env.OTHER_ORGANIZATION_ID,
  managementOtherKeyId: process.env.OTHER_MANAGEMENT_KEY_ID,
  managementOtherKeySecret: process.env.OTHER_MANAGEMENT_KEY_SECRET,
  alertsOtherToken: process.env.OTHER_ALERTS_TOKEN,
  runs: 2,
});
`,
    );
    // The reference target, started from code with the installed library.
    const library = (await import(join(installed, 'dist', 'index.js'))) as typeof import('../index.ts');
    /**
     * Runs `npx vitest run` there against a reference target with these faults; the test cases of its junit report (the
     * project's own reporter).
     */
    const vitestRun = async (faults: string[]): Promise<Exec & { cases: Array<{ name: string; failed: boolean }> }> => {
      const target = await library.startReference({ faults });
      try {
        const run = await exec('npx', ['vitest', 'run'], project, {
          ...env,
          NO_COLOR: '1',
          MANAGEMENT_BASE_URL: target.managementUrl,
          MANAGEMENT_KEY_ID: target.managementKeyId,
          MANAGEMENT_KEY_SECRET: target.managementKeySecret,
          ORGANIZATION_ID: target.organizationId,
          SERVICE_ID: target.serviceId,
          BACKUP_ID: target.backupId,
          ALERTS_BASE_URL: target.alertsUrl,
          ALERTS_TOKEN: target.alertsToken,
          ...otherTenantEnv(target as unknown as ReferenceTarget),
        });
        const junit = await readFile(join(project, 'reports', 'conformance-junit.xml'), 'utf8');
        for (const text of [run.stdout, run.stderr, junit]) {
          expect(text).not.toContain(target.managementKeySecret);
          expect(text).not.toContain(target.alertsToken);
        }
        const cases = [
          ...junit.matchAll(
            /<testcase classname="conformance\/api\.test\.ts" name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g,
          ),
        ].map((m) => ({
          name: m[1]!.replaceAll('&gt;', '>'),
          failed: (m[3] ?? '').includes('<failure'),
        }));
        return { ...run, cases };
      } finally {
        await target.close();
      }
    };

    const clean = await vitestRun([]);
    expect(clean.code, clean.stderr).toBe(0);
    // Every test passes but those of the rules no probe judges yet, which are skipped with their reason, and those of
    // the service's stop and start, left out by default against a configured target (the safe default).
    const skipped = clean.cases.filter(
      (c) => UNPROBED.has(c.name.split(' > ').at(-1)!) || c.name.startsWith('service > changeServiceState > '),
    ).length;
    expect(skipped).toBeGreaterThan(0);
    expect(clean.stdout).toMatch(new RegExp(`Tests +\\d+ passed \\| ${skipped} skipped`));
    expect(clean.cases.length).toBeGreaterThan(100);
    expect(clean.cases.filter((c) => c.failed)).toEqual([]);
    expect([...new Set(clean.cases.map((c) => c.name.split(' > ').at(-1)))].sort()).toEqual(
      library.RULES.map((rule) => rule.id).sort(),
    );
    expect(clean.cases.map((c) => c.name)).toContain('alerts > listAlerts > alerts.list-omits');

    const faulty = await vitestRun(['alerts-list-includes-silenced']);
    expect(faulty.code).toBe(1);
    expect(faulty.cases.filter((c) => c.failed).map((c) => c.name)).toEqual([
      'alerts > listAlerts > alerts.list-omits',
    ]);
    expect(faulty.stdout + faulty.stderr).toMatch(/ContractViolation: alerts\.list-omits on GET \/\S+/);
    expect(faulty.stdout).toMatch(/Tests +1 failed \| \d+ passed/);
  }, 240_000);

  it("runs from code with `import('contract-conformance')`", async () => {
    const script = `import('contract-conformance').then(async ({ runConformance, RULES }) => {
      const run = await runConformance({ runs: 1, reportDir: ${JSON.stringify(join(scratch, 'library-report'))} });
      console.log(JSON.stringify({
        exitCode: run.exitCode, outcome: run.report.outcome, rules: RULES.length, results: run.report.results.length,
      }));
    });`;
    const result = await exec(process.execPath, ['-e', script], join(installed, '..', '..'), env);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { exitCode: number; outcome: string; rules: number; results: number };
    expect(printed).toMatchObject({ exitCode: 0, outcome: 'passed' });
    expect(printed.rules).toBeGreaterThan(30);
    expect(printed.results).toBeGreaterThan(printed.rules);
  });
});
