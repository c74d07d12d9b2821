import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every temporary folder the tests make (report directories, scratch installs, browser profiles,
 * and those of the commands they start) goes under one folder of this run, removed when the run ends, so that a run
 * leaves nothing in the system's temporary folder. Set before vitest starts its workers, which inherit it.
 */
export default function temporaryFolder(): () => void {
  const before = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'conformance-tests-'));
  process.env.TMPDIR = folder;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(folder, { recursive: true, force: true });
  };
}
