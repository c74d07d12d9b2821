import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import type { RunConfig } from '../core/config.ts';
import { CollectReporter, type Collected } from '../reports/collect-reporter.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the suites with vitest in one worker (so that rate limits hold run-wide), returning what they produced. */
export async function runSuites(config: RunConfig, write: (line: string) => void, redact: (text: string) => string): Promise<Collected> {
  const collector = new CollectReporter(write, redact);
  const reportDir = resolve(config.reportDir);
  const vitest = await startVitest('test', [], {
    config: false,
    root: ROOT,
    dir: join(ROOT, 'suites'),
    include: ['**/*.suite.ts'],
    watch: false,
    pool: 'threads',
    maxWorkers: 1,
    isolate: false,
    fileParallelism: false,
    testTimeout: config.budgetMs + 60_000,
    hookTimeout: config.budgetMs + 60_000,
    provide: { conformance: { config } },
    reporters: [collector, ['junit', { outputFile: join(reportDir, 'junit.xml'), suiteName: 'conformance' }]],
    ...(config.shard ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
    passWithNoTests: true,
  }, { logLevel: 'error', cacheDir: join(ROOT, 'node_modules', '.vite-conformance') });
  await vitest.close();
  return collector.collected;
}
