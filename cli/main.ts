import { isHarnessError } from '../core/errors.ts';
import { HELP } from './help.ts';
import type { Io } from './io.ts';
import { parseRunArgs, resolveConfig } from '../core/config.ts';
import { PLAIN_STYLE, terminalStyle } from '../reports/terminal-style.ts';
import { RULE_IDS, RULES } from '../rules/index.ts';

/** Standard output and error, the summary drawn for standard output's terminal (colour, width) as `env` allows. */
function stdIo(env: Readonly<Record<string, string | undefined>>): Io {
  return { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`), style: terminalStyle(process.stdout, env) };
}

/**
 * `conformance run`: settings are resolved before the run's modules (vitest among them) load, so that a bad
 * setting is reported at once; like every subcommand, it is loaded on use so that `--help` and `rules` start fast.
 */
async function run(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io): Promise<number> {
  const config = resolveConfig(argv, env, RULE_IDS);
  const verbose = parseRunArgs(argv).verbose === true;
  const { runCommand } = await import('./run.ts');
  return runCommand(config, env, { ...io, style: { ...(io.style ?? PLAIN_STYLE), verbose } });
}

/** The `conformance` command: dispatches to a subcommand and turns harness errors into exit code 2. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io = stdIo(env)): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === '--help' || first === '-h' || argv.includes('--help') || argv.includes('-h')) {
      io.out(HELP);
      return 0;
    }
    switch (first) {
      case 'rules':
        for (const rule of RULES) io.out(`${rule.id.padEnd(36)} ${rule.basis.padEnd(8)} ${rule.title}`);
        return 0;
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
      case 'docs': {
        const { runDocs } = await import('./rules-doc.ts');
        return await runDocs(rest, io);
      }
      case 'run':
        return await run(rest, env, io);
      default:
        if (first !== undefined && !first.startsWith('-')) {
          io.err(`conformance: unknown command ${JSON.stringify(first)}. Run \`conformance --help\` for the commands.`);
          return 2;
        }
        return await run(argv, env, io);
    }
  } catch (error) {
    if (isHarnessError(error)) {
      io.err(`conformance: ${error.message} [${error.code}]`);
      return 2;
    }
    io.err(`conformance: internal error, the run could not be made (a harness bug; please report it): ${(error as Error).stack ?? String(error)}`);
    return 2;
  }
}
