import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.ts';

describe("Node's profiling flags, passed on to the run's thread", () => {
  it('`node --cpu-prof --cpu-prof-interval 500 conformance` runs, and profiles both threads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'profiling-'));
    const profiles = join(dir, 'profiles');
    const run = await runCli(['--runs', '1', '--report-dir', join(dir, 'report')], {}, 120_000, undefined, [
      '--cpu-prof',
      `--cpu-prof-dir=${profiles}`,
      '--cpu-prof-interval',
      '500',
    ]);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    // The command's thread, and the thread that sent the run.
    expect((await readdir(profiles)).filter((name) => name.endsWith('.cpuprofile')).length).toBe(2);
  }, 120_000);
});
