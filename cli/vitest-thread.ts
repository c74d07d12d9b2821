import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isatty } from 'node:tty';

// The one place that relies on how vitest starts its pool's threads, which vitest does not publish: the early worker
// (cli/early-worker.ts) is adopted only when this copy matches, and test/early-worker.test.ts fails, naming what
// differs, when a vitest release changes it.

/** The vitest release whose thread start `vitestThreadStart` copies. */
export const COPIED_FROM_VITEST = '4.1';

/**
 * What a thread is started with: vitest gives its pool's threads the same, which is how the pool knows it may adopt
 * one.
 */
export interface ThreadStart {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly execArgv: readonly string[];
}

/**
 * The environment and Node flags vitest 4.1 gives its pool's threads in a run like the harness's (no config file, no
 * `env`, vite's defaults): the process's environment, with vite's `import.meta.env` for mode `test` where it has none
 * of its own (vitest copies them into it so), and vitest's variables; the profiling flags the process has, vitest's
 * own, and vite's SSR resolve conditions. Like vite, it reads production from `NODE_ENV` (which vitest sets to `test`
 * when it is unset).
 */
export function vitestThreadStart(): ThreadStart {
  const vitestRoot = dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
  const { env } = process;
  const production = env.NODE_ENV === 'production';
  return {
    env: {
      ...env,
      BASE_URL: env.BASE_URL ?? '/',
      MODE: env.MODE ?? 'test',
      DEV: env.DEV ?? (production ? '' : '1'),
      PROD: env.PROD ?? (production ? '1' : ''),
      TEST: 'true',
      VITEST: 'true',
      NODE_ENV: env.NODE_ENV || 'test',
      VITEST_MODE: 'RUN',
      FORCE_TTY: isatty(1) ? 'true' : '',
    },
    execArgv: [
      ...process.execArgv.filter(
        (arg) => arg.startsWith('--cpu-prof') || arg.startsWith('--heap-prof') || arg.startsWith('--diagnostic-dir'),
      ),
      '--experimental-import-meta-resolve',
      '--require',
      join(vitestRoot, 'suppress-warnings.cjs'),
      '--conditions',
      'node',
      '--conditions',
      production ? 'production' : 'development',
    ],
  };
}

/** Node's profiling flags that take a value, which may be written as the next argument (`--cpu-prof-interval 200`). */
const VALUE_FLAGS: ReadonlySet<string> = new Set([
  '--cpu-prof-dir',
  '--cpu-prof-name',
  '--cpu-prof-interval',
  '--heap-prof-dir',
  '--heap-prof-name',
  '--heap-prof-interval',
  '--diagnostic-dir',
]);

/**
 * The flags a thread is spawned with, each profiling flag with its value: vitest keeps the process's flags that start
 * `--cpu-prof`, `--heap-prof` or `--diagnostic-dir`, which drops a value written as the next argument (`node
 * --cpu-prof --cpu-prof-interval 200`), and a thread started with the flag alone cannot start. The value is attached
 * (`--cpu-prof-interval=200`) from the process's own flags, `processArgv`.
 */
export function withFlagValues(
  execArgv: readonly string[],
  processArgv: readonly string[] = process.execArgv,
): string[] {
  const values = new Map<string, string>();
  for (const [i, arg] of processArgv.entries()) {
    const value = processArgv[i + 1];
    if (VALUE_FLAGS.has(arg) && value !== undefined) values.set(arg, value);
  }
  return execArgv.map((arg) => {
    const value = values.get(arg);
    return value === undefined ? arg : `${arg}=${value}`;
  });
}
