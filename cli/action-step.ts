import { spawn } from 'node:child_process';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RUN_FLAGS } from '../settings/config.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { HarnessError, isHarnessError } from '../core/errors.ts';
import { copyLocations, SPEC_COPIES_VARIABLE } from '../spec/operation-locations.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Inputs of action.yml that are not flags of `conformance`: the action's upload step and this step read them. */
const ACTION_ONLY_INPUTS: ReadonlySet<string> = new Set(['artifact-name', 'args', 'management-spec', 'alerts-spec']);

/** What the step leaves for the workflow: the action's outputs, as `$GITHUB_OUTPUT` lines. */
export interface ActionOutputs {
  readonly 'exit-code': string;
  readonly passed: string;
  readonly failed: string;
  readonly 'not-judged': string;
  readonly 'report-dir': string;
  readonly sarif: string;
}

/**
 * The command line the action's inputs stand for: each non-empty input named after a flag of `conformance` becomes
 * that flag (a boolean flag when the input is `true`), and `args` adds further flags, split at whitespace.
 */
export function actionArgs(inputs: Readonly<Record<string, string>>): string[] {
  const flags: Readonly<Record<string, { readonly type: string }>> = RUN_FLAGS;
  return Object.entries(inputs).flatMap(([name, raw]) => {
    const value = raw.trim();
    if (name === 'args') return value === '' ? [] : value.split(/\s+/);
    if (ACTION_ONLY_INPUTS.has(name) || value === '') return [];
    const flag = flags[name];
    if (!flag)
      throw new HarnessError('CONFIG_INVALID', `the action's input ${JSON.stringify(name)} is no flag of conformance.`);
    if (flag.type !== 'boolean') return [`--${name}`, value];
    if (value !== 'true' && value !== 'false') {
      throw new HarnessError(
        'CONFIG_INVALID',
        `the action's input ${name} takes true or false, not ${JSON.stringify(value)}.`,
      );
    }
    return value === 'true' ? [`--${name}`] : [];
  });
}

/**
 * The action's run step: runs `command` with the flags of the inputs (JSON in `CONFORMANCE_INPUTS`, as
 * `toJSON(inputs)` gives them), then writes the outputs to `$GITHUB_OUTPUT` from the run's findings.json, and
 * returns the run's exit code. The run itself writes the reports, the job summary and the annotations, locating
 * failures in the user's spec copies (`management-spec`, `alerts-spec`), which it is handed in the environment.
 */
export async function runActionStep(env: Env, command: readonly string[], cwd: string): Promise<number> {
  const { CONFORMANCE_INPUTS: given, ...runEnv } = env;
  const inputs = JSON.parse(given ?? '{}') as Record<string, string>;
  const reportDir = resolve(cwd, inputs['report-dir']?.trim() || DEFAULTS.reportDir);
  const started = Date.now();
  const copies = ['management-spec', 'alerts-spec'].map((name) => inputs[name]?.trim() ?? '').filter(Boolean);
  let code: number;
  try {
    const args = actionArgs(inputs);
    // Checked before the run, which locates its SARIF results and annotations in the same copies.
    await copyLocations(copies, cwd);
    code = await runToEnd(command, args, { ...runEnv, [SPEC_COPIES_VARIABLE]: copies.join('\n') }, cwd);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    process.stderr.write(`conformance: ${error.message} [${error.code}]\n`);
    code = 2;
  }
  const findings = await freshFindings(join(reportDir, 'findings.json'), started);
  const outputs: ActionOutputs = {
    'exit-code': String(code),
    passed: findings ? String(findings.stats.passed) : '',
    failed: findings ? String(findings.stats.failed) : '',
    'not-judged': findings ? String(findings.stats.notJudged) : '',
    'report-dir': reportDir,
    sarif: findings ? join(reportDir, 'results.sarif') : '',
  };
  if (env.GITHUB_OUTPUT)
    await appendFile(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  if (!findings && env.GITHUB_STEP_SUMMARY) {
    const heading = `## Conformance: ⚠️ the run could not be made (exit ${code})`;
    const said = `${heading}\n\nNo request was judged: the step's log says why.\n`;
    await appendFile(env.GITHUB_STEP_SUMMARY, said);
  }
  return code;
}

/** The stats of the run's findings.json, if this run wrote it (a folder may hold an older run's). */
async function freshFindings(file: string, since: number): Promise<{ stats: Record<string, number> } | undefined> {
  const written = await stat(file).catch(() => undefined);
  if (!written || written.mtimeMs < since - 1000) return undefined;
  return JSON.parse(await readFile(file, 'utf8')) as { stats: Record<string, number> };
}

function runToEnd(command: readonly string[], args: readonly string[], env: Env, cwd: string): Promise<number> {
  const [file, ...rest] = command;
  return new Promise((done, fail) => {
    const child = spawn(file!, [...rest, ...args], { cwd, env: { ...env }, stdio: 'inherit' });
    child.on('error', fail);
    child.on('close', (code, signal) => done(code ?? (signal ? 2 : 0)));
  });
}
