import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './support/cli.ts';

/** The correct server written by others from the documents alone (../shared/targets/python-server). */
const SERVER = join(ROOT, '..', 'shared', 'targets', 'python-server', 'server.py');
const PYTHON = spawnSync('python3', ['--version']).status === 0 ? 'python3' : undefined;
const SEEDS = [1, 2, 3];

/** What the server prints once it listens: its URLs, ids and credentials. */
interface Started {
  readonly management: string;
  readonly alerts: string;
  readonly org: string;
  readonly service: string;
  readonly backup: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly token: string;
  readonly alert: string;
  readonly otherOrg: string;
  readonly otherKeyId: string;
  readonly otherKeySecret: string;
  readonly otherToken: string;
}

/** The harness's variables for a run against the server, the second identity included. */
const envOf = (s: Started): Record<string, string> => ({
  MANAGEMENT_BASE_URL: s.management,
  ALERTS_BASE_URL: s.alerts,
  ORGANIZATION_ID: s.org,
  SERVICE_ID: s.service,
  BACKUP_ID: s.backup,
  MANAGEMENT_KEY_ID: s.keyId,
  MANAGEMENT_KEY_SECRET: s.keySecret,
  ALERTS_TOKEN: s.token,
  ALERT_ID: s.alert,
  OTHER_ORGANIZATION_ID: s.otherOrg,
  OTHER_MANAGEMENT_KEY_ID: s.otherKeyId,
  OTHER_MANAGEMENT_KEY_SECRET: s.otherKeySecret,
  OTHER_ALERTS_TOKEN: s.otherToken,
});

/** Every file under `dir`, with its text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path, text: await readFile(path, 'utf8') };
      }),
  );
}

describe.skipIf(PYTHON === undefined)('a correct server written by others from the documents (python3)', () => {
  let server: ChildProcess;
  let started: Started;
  let secretsFile: string;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'python-server-'));
    secretsFile = join(dir, 'secrets.txt');
    server = spawn(PYTHON!, [SERVER], {
      env: { PATH: process.env.PATH ?? '', SECRETS_FILE: secretsFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: server.stdout! });
    started = await new Promise<Started>((resolve, reject) => {
      server.once('exit', (code) => reject(new Error(`server.py exited (${code}) before it printed its settings`)));
      lines.once('line', (line) => resolve(JSON.parse(line) as Started));
    });
  }, 20_000);

  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it(`passes on seeds ${SEEDS.join(', ')}, and no credential the server holds or handed out is in any output`, async () => {
    for (const seed of SEEDS) {
      const reportDir = await mkdtemp(join(tmpdir(), `python-server-run-${seed}-`));
      const run = await runCli(['--seed', String(seed), '--report-dir', reportDir], envOf(started), 180_000);
      const output = `${run.stdout}\n${run.stderr}`;
      expect(output, `--seed ${seed}`).toMatch(/\nPASSED: 0 failed, \d+ passed/);
      expect(run.code, `--seed ${seed}: ${output.slice(-2000)}`).toBe(0);
      const secrets = (await readFile(secretsFile, 'utf8')).split('\n').filter((line) => line.length >= 8);
      // The run's own key secret and token, the other tenant's, and every key secret the run was handed.
      expect(secrets.length, 'SECRETS_FILE').toBeGreaterThan(4);
      const outputs = [{ path: 'the terminal', text: output }, ...(await filesUnder(reportDir))];
      const leaks = outputs.flatMap(({ path, text }) =>
        secrets.filter((secret) => text.includes(secret)).map((secret) => `${path}: ${secret.slice(0, 4)}…`),
      );
      expect(leaks, `--seed ${seed}`).toEqual([]);
    }
  }, 600_000);
});
