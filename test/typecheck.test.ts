import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * `npm test`'s type check (tsconfig.json: every source, test and bench file, strict), run here beside the other tests
 * rather than before them: alone in front it kept one of two cores idle for its 13 s of CPU.
 */
it('type-checks every source, test and bench file (tsc --noEmit): no error', async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      [TSC, '--noEmit', '-p', ROOT],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
      (e, out, err) => {
        if (e && typeof e.code !== 'number') reject(e);
        else resolve({ code: typeof e?.code === 'number' ? e.code : 0, output: `${out}${err}` });
      },
    );
  });
  expect(output).toBe('');
  expect(code).toBe(0);
}, 300_000);
