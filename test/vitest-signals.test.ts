import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

const run = promisify(execFile);

/**
 * A process that runs vitest as the command does (the build's `runVitest`), listens for SIGTERM as the command does,
 * and sends itself SIGTERM as soon as vitest adds a listener for it: before vitest's reporters hear `onInit`, while a
 * run's first requests are already out.
 */
const CHILD = `
const { runVitest } = await import(process.argv[1]);
let heard = 0;
process.on('SIGTERM', () => { heard += 1; });
process.on('newListener', (event) => {
  if (event === 'SIGTERM') setImmediate(() => process.kill(process.pid, 'SIGTERM'));
});
let initialised = false;
await runVitest(process.argv[2], {
  include: ['no-such.suite.js'],
  reporters: [{ onInit: () => { initialised = true; } }],
});
await new Promise((resolve) => setTimeout(resolve, 50));
console.log(JSON.stringify({ heard, initialised }));
`;

describe("vitest's own signal handlers", () => {
  it('never hear a SIGTERM that arrives while vitest starts: the command hears it, the process goes on', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'vitest-signals-'));
    const child: { code?: number; stdout: string } = await run(
      process.execPath,
      ['--input-type=module', '-e', CHILD, join(ROOT, 'dist/cli/suites-run.js'), cache],
      { cwd: ROOT, timeout: 60_000 },
    ).catch((error: { code?: number; stdout: string }) => error);
    // Ended by vitest's handler, the process exits 143 without printing.
    expect({ code: child.code ?? 0, printed: child.stdout.trim() }).toEqual({
      code: 0,
      printed: '{"heard":1,"initialised":true}',
    });
  }, 90_000);
});
