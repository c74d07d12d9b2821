import { didYouMean } from '../core/did-you-mean.ts';
import { HarnessError } from '../core/errors.ts';

/**
 * Throws CONFIG_INVALID for the first `--flag` in argv that `command` does not take, with a "did you mean"; `--help` is
 * always known.
 */
export function assertKnownFlags(command: string, argv: readonly string[], flags: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (!arg.startsWith('--')) continue;
    const name = arg.slice(2).split('=')[0]!;
    if (name === 'help' || flags.includes(name)) continue;
    const known = flags.map((flag) => `--${flag}`);
    throw new HarnessError(
      'CONFIG_INVALID',
      `unknown flag --${name} for \`conformance ${command}\`${didYouMean(`--${name}`, known)}. Run ` +
        `\`conformance help ${command}\` for its flags.`,
    );
  }
}
