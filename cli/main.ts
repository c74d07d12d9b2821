import { isHarnessError } from '../core/errors.ts';
import { HELP } from './help.ts';
import type { Io } from './io.ts';
import { resolveConfig } from '../core/config.ts';
import { TOOL_VERSION } from '../core/package-root.ts';
import { RULE_IDS, RULES } from '../rules/index.ts';

const STD_IO: Io = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/**
 * `conformance run`: settings are resolved before the run's modules (vitest among them) load, so that a bad
 * setting is reported at once; like every subcommand, it is loaded on use so that `--help` and `rules` start fast.
 */
async function run(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io): Promise<number> {
  const config = resolveConfig(argv, env, RULE_IDS);
  const { runCommand } = await import('./run.ts');
  return runCommand(config, env, io);
}

/** The `conformance` command: dispatches to a subcommand and turns harness errors into exit code 2. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io = STD_IO): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === '--help' || first === '-h' || argv.includes('--help') || argv.includes('-h')) {
      io.out(HELP);
      return 0;
    }
    if (first === '--version') {
      io.out(TOOL_VERSION);
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
