import { isHarnessError } from '../core/errors.ts';
import { COMMAND_FLAGS, COMMAND_HELP, COMMANDS, HELP, type Command } from './help.ts';
import type { EarlyWorker } from './early-worker.ts';
import type { Io } from './io.ts';
import { parseRunArgs, resolveConfig, RUN_FLAGS, type RunConfig } from '../settings/config.ts';
import { assertKnownFlags } from './known-flags.ts';
import { PLAIN_STYLE, terminalStyle } from '../reports/terminal-style.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { RULE_IDS, RULES } from '../rules/index.ts';
import { didYouMean } from '../core/did-you-mean.ts';

/** What the executable does beside what `main` does everywhere (tests call `main` in their own process). */
export interface MainHooks {
  /** Called with a run's resolved settings before its modules load and the run's thread is handed them. */
  readonly beforeRun?: (config: RunConfig) => void;
  /** The run's thread, spawned before the settings were resolved, for the run to hand them to. */
  readonly early?: EarlyWorker;
  /** A run sends and judges in this thread (RunOptions.inThisThread). */
  readonly inThisThread?: boolean;
}

/** Standard output and error, the summary drawn for standard output's terminal (colour, width) as `env` allows. */
function stdIo(env: Readonly<Record<string, string | undefined>>): Io {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    style: terminalStyle(process.stdout, env),
  };
}

/**
 * `conformance run`: settings are resolved before the run's modules load, so that a bad
 * setting is reported at once; like every subcommand, it is loaded on use so that `--help` and `rules` start fast.
 */
async function run(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Io,
  hooks: MainHooks,
): Promise<number> {
  assertKnownFlags('run', argv, Object.keys(RUN_FLAGS));
  const config = resolveConfig(argv, env, RULE_IDS);
  if (config.settingsFile?.found)
    io.out(
      `conformance: settings read from ${config.settingsFile.path} (found in the working folder; no --config given)`,
    );
  hooks.beforeRun?.(config);
  const verbose = parseRunArgs(argv).verbose === true;
  const { runCommand } = await import('./run.ts');
  return runCommand(config, env, { ...io, style: { ...(io.style ?? PLAIN_STYLE), verbose } }, undefined, {
    ...(hooks.early ? { early: hooks.early } : {}),
    ...(hooks.inThisThread ? { inThisThread: true } : {}),
  });
}

/** `conformance rules [ID] [--json]`: lists the rules, or explains one. */
async function rules(argv: readonly string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  const ids = argv.filter((arg) => arg !== '--json');
  if (ids.length === 0) {
    if (json)
      io.out(
        JSON.stringify(
          RULES.map(({ id, basis, title }) => ({ id, basis, title })),
          null,
          2,
        ),
      );
    else for (const rule of RULES) io.out(`${rule.id.padEnd(36)} ${rule.basis.padEnd(8)} ${rule.title}`);
    return 0;
  }
  const [{ explainRule, ruleById, ruleText }, { loadShippedSpecs }, { FAULTS }] = await Promise.all([
    import('./rule-help.ts'),
    import('../spec/prepared-specs.ts'),
    import('../reference/faults.ts'),
  ]);
  const chosen = ids.map((id) => ruleById(RULES, id));
  const specs = await loadShippedSpecs();
  const explained = chosen.map((rule) => explainRule(rule, specs.operations, FAULTS));
  io.out(
    json
      ? JSON.stringify(explained.length === 1 ? explained[0] : explained, null, 2)
      : explained.map(ruleText).join('\n\n'),
  );
  return 0;
}

function isCommand(word: string | undefined): word is Command {
  return (COMMANDS as readonly string[]).includes(word ?? '');
}

function unknownCommand(word: string, io: Io): number {
  io.err(
    `conformance: unknown command ${JSON.stringify(word)}${didYouMean(word, COMMANDS)}. Run \`conformance ` +
      `help\` for the commands.`,
  );
  return 2;
}

/** The `conformance` command: dispatches to a subcommand and turns harness errors into exit code 2. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: Io = stdIo(env),
  hooks: MainHooks = {},
): Promise<number> {
  const [first, ...rest] = argv;
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  try {
    if (first === 'help') {
      const [topic, ...extra] = rest;
      if (topic === undefined) io.out(HELP);
      else if (topic === '--help' || topic === '-h') io.out(COMMAND_HELP.help);
      else if (isCommand(topic) && extra.length === 0) io.out(COMMAND_HELP[topic]);
      else return unknownCommand(extra.length > 0 ? rest.join(' ') : topic, io);
      return 0;
    }
    if (first === '--version') {
      io.out(TOOL_VERSION);
      return 0;
    }
    if (wantsHelp) {
      io.out(isCommand(first) ? COMMAND_HELP[first] : HELP);
      return 0;
    }
    if (isCommand(first) && first !== 'run') assertKnownFlags(first, rest, COMMAND_FLAGS[first]);
    switch (first) {
      case 'rules':
        return await rules(rest, io);
      case 'reference': {
        const { runReference } = await import('../reference/main.ts');
        return await runReference(rest);
      }
      case 'diff': {
        const { runDiff } = await import('./diff.ts');
        return await runDiff(rest, io);
      }
      case 'merge': {
        const { runMerge } = await import('./merge.ts');
        return await runMerge(rest, env, io);
      }
      case 'bundle': {
        const { runBundle } = await import('./bundle.ts');
        return await runBundle(rest, io);
      }
      case 'verify': {
        const { runVerify } = await import('./verify.ts');
        return await runVerify(rest, io);
      }
      case 'docs': {
        const { runDocs } = await import('./rules-doc.ts');
        return await runDocs(rest, io);
      }
      case 'run':
        return await run(rest, env, io, hooks);
      default:
        if (first !== undefined && !first.startsWith('-')) return unknownCommand(first, io);
        return await run(argv, env, io, hooks);
    }
  } catch (error) {
    if (isHarnessError(error)) {
      io.err(`conformance: ${error.message} [${error.code}]`);
      return 2;
    }
    io.err(
      'conformance: internal error, the run could not be made (a harness bug; please report ' +
        `it): ${(error as Error).stack ?? String(error)}`,
    );
    return 2;
  }
}
