import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import type { Log } from 'sarif';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_BUNDLE_DIR, bundleAction } from '../build/action-bundle.ts';
import { actionArgs, runActionStep } from '../cli/action-step.ts';
import { RUN_FLAGS } from '../settings/config.ts';
import { ANNOTATIONS_PER_KIND } from '../reports/github-annotations.ts';
import { ROOT } from './support/cli.ts';

interface Step {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, string>>;
}

interface ActionFile {
  readonly inputs: Readonly<Record<string, { readonly default?: string }>>;
  readonly outputs: Readonly<Record<string, { readonly value: string }>>;
  readonly runs: { readonly using: string; readonly steps: readonly Step[] };
}

/** What running the action's steps as the runner would left behind. */
interface ActionRun {
  readonly outputs: Readonly<Record<string, string>>;
  readonly stdout: string;
  readonly summary: string;
  readonly githubEnv: string;
  readonly skipped: readonly Step[];
}

const ACTION_TEXT = await readFile(join(ROOT, 'action.yml'), 'utf8');
const ACTION = parse(ACTION_TEXT) as ActionFile;

/** This process's environment without target settings or GitHub's variables, as on a fresh runner. */
const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID|GITHUB_|RUNNER_|INPUT_)/.test(k),
  ),
);

/**
 * Evaluates the expressions action.yml uses, as the runner does (and nothing else, so that a new kind of expression
 * fails here first): inputs with their defaults, `toJSON(inputs)`, step outputs, `!cancelled()`, `!= ''`.
 */
function evaluate(
  text: string,
  inputs: Readonly<Record<string, string>>,
  steps: Readonly<Record<string, Readonly<Record<string, string>>>>,
): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) =>
    String(expressionValue(expression, inputs, steps)),
  );
}

function expressionValue(
  expression: string,
  inputs: Readonly<Record<string, string>>,
  steps: Readonly<Record<string, Readonly<Record<string, string>>>>,
): string | boolean {
  const and = expression.split(/\s*&&\s*/);
  if (and.length > 1) return and.every((part) => expressionValue(part, inputs, steps) === true);
  if (expression === '!cancelled()') return true;
  if (expression === 'runner.os') return 'Linux';
  const unequal = /^(.*?)\s*!=\s*'([^']*)'$/.exec(expression);
  if (unequal) return expressionValue(unequal[1]!, inputs, steps) !== unequal[2];
  if (expression === 'toJSON(inputs)') return JSON.stringify(inputs, null, 2);
  const input = /^inputs\.([\w-]+)$/.exec(expression);
  if (input) return inputs[input[1]!] ?? '';
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return steps[output[1]!]?.[output[2]!] ?? '';
  throw new Error(`action.yml uses an expression this test does not evaluate: ${expression}`);
}

/** `name=value` lines of a `$GITHUB_OUTPUT` file (the action writes no multi-line values). */
function outputsOf(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** Runs a shell command to its end in `cwd`, failing the test on a non-zero exit; its standard output. */
function sh(script: string, cwd: string): string {
  const run = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${script}: exit ${run.status}\n${run.stderr}`);
  return run.stdout;
}

/** Runs a step's script as the runner's `shell: bash` does (`bash --noprofile --norc -eo pipefail`). */
function bash(script: string, env: Readonly<Record<string, string>>, cwd: string): { code: number; stdout: string } {
  const run = spawnSync('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', script], {
    cwd,
    env: { ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: run.status ?? -1, stdout: run.stdout };
}

/**
 * Runs the action's steps as GitHub's runner does: each `run:` with bash, its `env` evaluated, GITHUB_ACTION_PATH the
 * action's checkout (`actionPath`), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV pointing at files of `dir`, a
 * failed step skipping every later step whose `if` does not allow it; `uses:` steps are not run (their `with` is
 * returned evaluated). `files` go into the workspace first.
 */
async function runAction(
  dir: string,
  given: Readonly<Record<string, string>>,
  actionPath: string,
  files: Readonly<Record<string, string>> = {},
): Promise<ActionRun & { uploads: Record<string, string>[] }> {
  const inputs = Object.fromEntries(
    Object.entries(ACTION.inputs).map(([name, spec]) => [name, given[name] ?? spec.default ?? '']),
  );
  const workspace = join(dir, 'workspace');
  await mkdir(join(dir, 'runner-temp'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  const written = { summary: join(dir, 'step-summary.md'), env: join(dir, 'github-env') };
  await writeFile(written.summary, '');
  await writeFile(written.env, '');
  const steps: Record<string, Record<string, string>> = {};
  const skipped: Step[] = [];
  const uploads: Record<string, string>[] = [];
  let failed = false;
  let stdout = '';
  for (const [index, step] of ACTION.runs.steps.entries()) {
    if (failed && !(step.if && expressionValue(step.if.replace(/^\$\{\{\s*|\s*\}\}$/g, ''), inputs, steps) === true)) {
      skipped.push(step);
      continue;
    }
    if (step.if && expressionValue(step.if.replace(/^\$\{\{\s*|\s*\}\}$/g, ''), inputs, steps) !== true) {
      skipped.push(step);
      continue;
    }
    if (step.uses) {
      const withs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), inputs, steps)]),
      );
      uploads.push(withs);
      continue;
    }
    expect(step.shell).toBe('bash');
    const outputFile = join(dir, `output-${index}`);
    await writeFile(outputFile, '');
    const env = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), inputs, steps)]),
    );
    const run = bash(
      evaluate(step.run!, inputs, steps),
      {
        ...CLEAN_ENV,
        ...env,
        GITHUB_ACTIONS: 'true',
        GITHUB_ACTION_PATH: actionPath,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: written.summary,
        GITHUB_ENV: written.env,
        GITHUB_WORKSPACE: workspace,
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'team/service',
        GITHUB_RUN_ID: '4242',
        RUNNER_TEMP: join(dir, 'runner-temp'),
        XDG_CACHE_HOME: join(dir, 'cache'),
      },
      workspace,
    );
    stdout += run.stdout;
    if (step.id) steps[step.id] = outputsOf(await readFile(outputFile, 'utf8'));
    if (run.code !== 0) failed = true;
  }
  const outputs = Object.fromEntries(
    Object.entries(ACTION.outputs).map(([name, spec]) => [name, evaluate(spec.value, inputs, steps)]),
  );
  return {
    outputs,
    stdout,
    summary: await readFile(written.summary, 'utf8'),
    githubEnv: await readFile(written.env, 'utf8'),
    skipped,
    uploads,
  };
}

/** The whole workflows (YAML blocks with `jobs:`) of the GitHub Actions guide. */
async function guideWorkflows(): Promise<string[]> {
  const guide = await readFile(join(ROOT, 'docs', 'github-actions.md'), 'utf8');
  return [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((block) => /^jobs:/m.test(block));
}

describe('action.yml and the workflows of docs/github-actions.md', () => {
  it('validate against the published schemas of action metadata and workflows', async () => {
    expect(validateAction(ACTION_TEXT).errors).toEqual([]);
    const workflows = await guideWorkflows();
    expect(workflows.length).toBeGreaterThanOrEqual(2);
    for (const workflow of workflows) expect(validateWorkflow(workflow).errors).toEqual([]);
    // The validator does refuse what is wrong: a composite step without a shell, a job without runs-on.
    expect(validateAction(ACTION_TEXT.replace('      shell: bash\n', '')).errors).not.toEqual([]);
    expect(validateWorkflow('on: push\njobs:\n  a:\n    steps:\n      - run: "true"\n').errors).not.toEqual([]);
  });

  it("the guide's workflow uses the action, takes credentials only through env, uploads results.sarif", async () => {
    const [workflow] = (await guideWorkflows()).filter((w) => w.includes('contract-conformance@'));
    const steps = (parse(workflow!) as { jobs: Record<string, { steps: Step[] }> }).jobs.conformance!.steps;
    const action = steps.find((s) => s.id === 'conformance')!;
    expect(Object.keys(action.with ?? {}).every((name) => name in ACTION.inputs)).toBe(true);
    expect(Object.values(action.with ?? {}).join(' ')).not.toMatch(/secrets\./);
    expect(Object.values(action.env ?? {}).every((v) => /^\$\{\{ secrets\.\w+ \}\}$/.test(v))).toBe(true);
    const sarif = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(sarif.with?.sarif_file).toMatch(/^\$\{\{ steps\.conformance\.outputs\.sarif \}\}$/);
  });

  it('takes no credential as an input, and every input is a flag of conformance or one of the action’s own', () => {
    const own = ['artifact-name', 'args', 'management-spec', 'alerts-spec'];
    for (const name of Object.keys(ACTION.inputs)) {
      expect(name).not.toMatch(/secret|token|password|key-id/i);
      expect(own.includes(name) || name in RUN_FLAGS, name).toBe(true);
    }
    expect(
      actionArgs({
        'management-url': ' https://x.test ',
        'require-judged': 'true',
        runs: '',
        args: ' --seed 3\n--verbose ',
        'artifact-name': 'reports',
      }),
    ).toEqual(['--management-url', 'https://x.test', '--require-judged', '--seed', '3', '--verbose']);
    expect(() => actionArgs({ 'require-judged': 'yes' })).toThrow(/require-judged takes true or false/);
  });
});

describe("the action's spec copies", () => {
  it('are checked before the run: one outside the checkout is exit 2 and nothing is run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'action-copies-'));
    const ran = join(dir, 'ran');
    const inputs = JSON.stringify({ 'management-spec': '../outside.yaml' });
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write;
    try {
      const code = await runActionStep({ CONFORMANCE_INPUTS: inputs }, ['touch', ran], dir);
      expect(code).toBe(2);
      expect(existsSync(ran)).toBe(false);
    } finally {
      process.stderr.write = write;
      await rm(dir, { recursive: true, force: true });
    }
    expect(written.join('')).toBe(
      'conformance: the spec copy "../outside.yaml" is not in the checkout: give the path of a file in the ' +
        'repository. [CONFIG_INVALID]\n',
    );
  });
});

describe("the action's steps, run as the runner would", () => {
  let scratch: string;
  let clean: Awaited<ReturnType<typeof runAction>>;
  let faulty: Awaited<ReturnType<typeof runAction>>;
  let broken: Awaited<ReturnType<typeof runAction>>;

  let clone: string;
  let specCopy: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'action-'));
    // What `uses: <repo>@<ref>` gives the runner: a fresh clone of the repository at the ref, nothing installed or
    // built in it (no node_modules, no dist/).
    clone = join(scratch, 'action-checkout');
    sh(`git clone --quiet --depth 1 file://${ROOT} ${JSON.stringify(clone)}`, scratch);
    // The user's copy of the management spec, two lines longer than the shipped one: SARIF lines are the copy's.
    specCopy = `# our copy\n# of the contract\n${await readFile(join(ROOT, 'openapi', 'management.yaml'), 'utf8')}`;
    // One after the other: each run is a whole harness run, and the machine is shared.
    clean = await runAction(join(scratch, 'clean'), { runs: '3' }, clone);
    faulty = await runAction(
      join(scratch, 'faulty'),
      {
        runs: '3',
        'report-dir': 'out/faulty',
        'management-spec': 'contract/management.yaml',
        args: ['auth-missing-accepted', 'keys-default-expiry', 'request-id-v1']
          .map((f) => `--reference-fault ${f}`)
          .join(' '),
      },
      clone,
      { 'contract/management.yaml': specCopy },
    );
    broken = await runAction(join(scratch, 'broken'), { runs: 'many' }, clone);
  }, 300_000);

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('against the clean reference target: exit 0, every output set, the summary appended, no annotation', async () => {
    const findings = JSON.parse(await readFile(join(clean.outputs['report-dir']!, 'findings.json'), 'utf8'));
    expect(clean.outputs).toEqual({
      'exit-code': '0',
      passed: String(findings.stats.passed),
      failed: '0',
      'not-judged': String(findings.stats.notJudged),
      'report-dir': join(scratch, 'clean', 'workspace', 'reports', 'conformance'),
      sarif: join(scratch, 'clean', 'workspace', 'reports', 'conformance', 'results.sarif'),
    });
    expect(findings.stats.passed).toBeGreaterThan(50);
    const sarif = JSON.parse(await readFile(clean.outputs.sarif!, 'utf8')) as Log;
    expect(sarif.runs[0]!.results).toEqual([]);
    expect(clean.summary).toMatch(/^## Conformance: ✅ PASSED/);
    expect(clean.summary).toContain(
      "[this run's artifacts](https://github.example/team/service/actions/runs/4242#artifacts)",
    );
    expect(clean.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    expect(clean.skipped).toEqual([]);
    expect(clean.uploads).toEqual([
      { name: 'conformance-reports', path: clean.outputs['report-dir'], 'if-no-files-found': 'ignore' },
    ]);
    expect(clean.githubEnv).toBe('');
  });

  it('against a faulty target: exit 1, failures counted, SARIF results, capped annotations, uploaded', async () => {
    const findings = JSON.parse(await readFile(join(faulty.outputs['report-dir']!, 'findings.json'), 'utf8'));
    expect(faulty.outputs).toEqual({
      'exit-code': '1',
      passed: String(findings.stats.passed),
      failed: String(findings.stats.failed),
      'not-judged': String(findings.stats.notJudged),
      'report-dir': join(scratch, 'faulty', 'workspace', 'out', 'faulty'),
      sarif: join(scratch, 'faulty', 'workspace', 'out', 'faulty', 'results.sarif'),
    });
    expect(findings.stats.failed).toBeGreaterThan(ANNOTATIONS_PER_KIND);
    const sarif = JSON.parse(await readFile(faulty.outputs.sarif!, 'utf8')) as Log;
    expect(sarif.runs[0]!.results).toHaveLength(findings.stats.failed);
    const errors = faulty.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(errors[0]).toMatch(/title=auth\.required::/);
    expect(errors.at(-1)).toMatch(
      new RegExp(`title=conformance%3A ${findings.stats.failed - ANNOTATIONS_PER_KIND + 1} more::`),
    );
    expect(faulty.summary).toMatch(/^## Conformance: ❌ FAILED/);
    expect(faulty.summary).toContain('### Causes of failure, worst first');
    expect(faulty.uploads).toHaveLength(1);
    expect(faulty.githubEnv).toBe('');
  });

  it('runs the code of its own ref from a fresh clone with Node alone, installing nothing', () => {
    expect(existsSync(join(clone, 'node_modules')) || existsSync(join(clone, 'dist'))).toBe(false);
    const scripts = ACTION.runs.steps.flatMap((step) => (step.run ? [step.run] : []));
    expect(scripts).toEqual(['node "$GITHUB_ACTION_PATH/action/bundle/action.js"']);
    expect(ACTION.runs.steps.flatMap((step) => step.uses ?? [])).toEqual(['actions/upload-artifact@v4']);
    // It ran: the clean run's reports name the clone's bundle, never a package installed by name.
    expect(clean.outputs['exit-code']).toBe('0');
    expect(clean.stdout).not.toMatch(/npm (install|ci)|node_modules/);
    // The bundled command's subcommands are the command's: `reference` lists its faults, once.
    const listed = spawnSync(
      process.execPath,
      [join(clone, ACTION_BUNDLE_DIR, 'conformance.js'), 'reference', '--list'],
      {
        encoding: 'utf8',
      },
    );
    expect([listed.status, listed.stderr]).toEqual([0, '']);
    expect(listed.stdout.match(/^Faults/gm)).toEqual(['Faults']);
  });

  it('runs a bundle that is what the sources build now, byte for byte', async () => {
    const rebuilt = join(scratch, 'rebuilt');
    await bundleAction(rebuilt);
    for (const name of ['action.js', 'conformance.js']) {
      const committed = await readFile(join(ROOT, ACTION_BUNDLE_DIR, name));
      const fresh = await readFile(join(rebuilt, name));
      expect(fresh.equals(committed), `${ACTION_BUNDLE_DIR}/${name} is out of date: npm run bundle-action`).toBe(true);
    }
  }, 60_000);

  it("locates SARIF results and annotations in the user's copy of the spec, never in the package", async () => {
    const sarif = JSON.parse(await readFile(faulty.outputs.sarif!, 'utf8')) as Log;
    const lines = specCopy.split('\n');
    let inCopy = 0;
    for (const result of sarif.runs[0]!.results ?? []) {
      const physical = result.locations?.[0]?.physicalLocation;
      const operation = String(result.properties?.operation);
      if (!physical) {
        // Only an alerts operation, whose spec the user named no copy of, is located by operation alone.
        expect(operation).toMatch(/^\S+ \/api\//);
        continue;
      }
      inCopy += 1;
      expect(physical.artifactLocation).toEqual({ uri: 'contract/management.yaml', uriBaseId: '%SRCROOT%' });
      const [method] = operation.split(' ');
      expect(lines[physical.region!.startLine! - 1]!.trim()).toBe(`${method!.toLowerCase()}:`);
    }
    expect(inCopy).toBeGreaterThan(0);
    // The annotations point where SARIF does: the copy's line of the method's key, or (alerts) nowhere.
    const annotated = faulty.stdout.split('\n').filter((l) => /^::(error|warning) /.test(l));
    const files = annotated.map((l) => /^::\w+ file=([^,]+),line=(\d+),col=\d+,/.exec(l));
    expect(files.filter(Boolean).length).toBeGreaterThan(0);
    for (const [i, found] of files.entries()) {
      if (!found) {
        expect(annotated[i]).toMatch(/^::\w+ title=[^:]+::(\S+ \/api\/|\d+ more)/);
        continue;
      }
      expect(found[1]).toBe('contract/management.yaml');
      expect(lines[Number(found[2]) - 1]).toMatch(/^ {4}(get|put|post|delete|patch):$/);
    }
  });

  it('with a bad setting: exit 2, no counts and no SARIF claimed, the summary says the run could not be made', () => {
    expect(broken.outputs).toEqual({
      'exit-code': '2',
      passed: '',
      failed: '',
      'not-judged': '',
      'report-dir': join(scratch, 'broken', 'workspace', 'reports', 'conformance'),
      sarif: '',
    });
    expect(broken.summary).toMatch(/^## Conformance: ⚠️ the run could not be made \(exit 2\)/);
  });
});
