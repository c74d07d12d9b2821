import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

/**
 * Starts a process that (given `runs`) applies the command's heap limits for a run of that many, then a worker thread
 * that allocates as the run's worker does: garbage, with a window of recent objects still alive. Returns the most the
 * worker's young generation took, in MiB. Flags change a whole process, so this never runs in the test's own.
 */
function youngGenerationMiB(runs: number | undefined): Promise<number> {
  const limit =
    runs === undefined
      ? ''
      : `const { limitHeapGrowth } = await import('./cli/heap-limits.ts'); limitHeapGrowth(${runs});`;
  const script = `
    import { Worker } from 'node:worker_threads';
    ${limit}
    const worker = new Worker(\`
      const { getHeapSpaceStatistics } = require('node:v8');
      const window = [];
      let most = 0;
      for (let i = 0; i < 300000; i++) {
        window.push({ i, text: 'x'.repeat(200) + i, list: [i, i + 1] });
        if (window.length > 2000) window.shift();
        if (i % 1000 === 0) {
          for (const space of getHeapSpaceStatistics()) {
            if (space.space_name === 'new_space') most = Math.max(most, space.space_size);
          }
        }
      }
      require('node:worker_threads').parentPort.postMessage(most);
    \`, { eval: true, execArgv: [] });
    worker.once('message', (most) => process.stdout.write(String(most / 1048576)));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe("the command's heap limits", () => {
  it("bound the young generation of the threads a run longer than the default starts (vitest's worker), to 8 " +
    'MiB, which V8 would let grow to 32', async () => {
    const [unlimited, defaultRun, longRun] = await Promise.all([
      youngGenerationMiB(undefined),
      youngGenerationMiB(8),
      youngGenerationMiB(64),
    ]);
    // Without the limits the same load takes V8's default most: the bound below is the flags', not the load's.
    expect(unlimited).toBeGreaterThan(16);
    expect(defaultRun).toBeGreaterThan(16);
    expect(longRun).toBeLessThanOrEqual(8);
  }, 60_000);
});
