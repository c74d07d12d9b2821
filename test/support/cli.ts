import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a finished `conformance` process printed and returned. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const CLEAN_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) =>
      !/^(MANAGEMENT_|ALERTS_|ORGANIZATION_ID|SERVICE_ID|BACKUP_ID|ALERT_ID|GITHUB_|CLIENT_KEY_PASSPHRASE)/.test(k) &&
      !/^(https?|no)_proxy$/i.test(k),
  ),
);

/**
 * The command as installed: bin/conformance.js, which runs the build in dist/ (test/fresh-build.ts keeps it as new as
 * the sources, so that tests see the code as edited) and starts in a fraction of what tsx's transform costs.
 */
const COMMAND = ['bin/conformance.js'];

/**
 * Runs the `conformance` command as a user would, with only the given target variables set; `onSpawn` gets the process
 * (to signal it), `nodeFlags` go to Node before the command.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  onSpawn?: (child: ChildProcess) => void,
  nodeFlags: readonly string[] = [],
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...COMMAND, ...args], {
      cwd: ROOT,
      env: { ...CLEAN_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`conformance ${args.join(' ')} did not finish in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
