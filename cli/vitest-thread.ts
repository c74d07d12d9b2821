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
