import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/conformance.js', import.meta.url));
const SUPPORTED = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/**
 * Runs `node bin/conformance.js --version` with only PATH and these variables; the folders in its temporary folder
 * after.
 */
async function versionRun(env: Record<string, string>): Promise<{ stdout: string; cached: boolean }> {
  const tmp = await mkdtemp(join(tmpdir(), 'compile-cache-'));
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, '--version'], {
    env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, ...env },
  });
  const cache = join(tmp, 'node-compile-cache');
  return { stdout, cached: existsSync(cache) && (await readdir(cache)).length > 0 };
}

describe.skipIf(!SUPPORTED)(
  `the compiled code cache (skipped: Node ${process.version} has no module.enableCompileCache; it came in 22.1)`,
  () => {
    it(
      'keeps the compiled modules in the temporary ' + 'folder, unless NODE_DISABLE_COMPILE_CACHE says ' + 'not to',
      async () => {
        const on = await versionRun({});
        expect(on.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
        expect(on.cached).toBe(true);
        const off = await versionRun({ NODE_DISABLE_COMPILE_CACHE: '1' });
        expect(off.stdout).toBe(on.stdout);
        expect(off.cached).toBe(false);
      },
    );
  },
);
