import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.ts';

/** What a finished process printed and returned. */
function exec(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000 }, (e, out, err) => {
      if (e && typeof e.code !== 'number') reject(e);
      else resolve({ code: typeof e?.code === 'number' ? e.code : 0, stdout: out, stderr: err });
    });
  });
}

const PACKAGE = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  repository?: { type?: string; url?: string };
};

/** `owner/name` of the repository package.json names. */
const REPOSITORY = /github\.com\/([^/]+\/[^/.]+)(\.git)?$/.exec(PACKAGE.repository?.url ?? '')?.[1];

/** The fenced code blocks of a Markdown text. */
const codeBlocks = (markdown: string): string[] => [...markdown.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('the install the README gives works today', () => {
  it('package.json names its repository, on GitHub over https', () => {
    expect(PACKAGE.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\//) });
    expect(REPOSITORY).toBeDefined();
  });

  it(
    'every install command of the README names the repository or a packed tarball, ' + 'not the unpublished name',
    async () => {
      const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
      const installs = codeBlocks(readme)
        .flatMap((block) => block.split('\n'))
        .filter((line) => /^\s*npm (install|i)\b/.test(line));
      expect(installs.length).toBeGreaterThan(0);
      for (const line of installs) {
        const spec = line.trim().split(/\s+/).at(-1)!;
        expect([PACKAGE.repository?.url, 'a .tgz']).toContain(spec.endsWith('.tgz') ? 'a .tgz' : spec);
      }
      expect(readme).toMatch(/not on the npm\s+registry yet/);
    },
  );

  it("the action's uses: lines in the docs name this repository at a ref it has", async () => {
    const docs = ['README.md', ...['github-actions.md', 'config-and-headers.md'].map((f) => join('docs', f))];
    const uses: string[] = [];
    for (const doc of docs) {
      const text = await readFile(join(ROOT, doc), 'utf8');
      uses.push(
        ...[...text.matchAll(/uses: ([\w.-]+\/[\w.-]+)@([\w./-]+)/g)]
          .filter((m) => !/^actions\/|^github\//.test(m[1]!))
          .map((m) => `${m[1]}@${m[2]}`),
      );
    }
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) {
      const [repository, ref] = use.split('@') as [string, string];
      expect(repository).toBe(REPOSITORY);
      const refs = [`refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/origin/${ref}`, ref];
      const found = await Promise.all(
        refs.map((name) => exec('git', ['rev-parse', '--verify', '--quiet', `${name}^{commit}`])),
      );
      expect(
        found.some((one) => one.code === 0),
        `${use}: no such ref in this repository`,
      ).toBe(true);
    }
  });

  it('npx conformance in a clone runs the built command without building it again ' +
    '(prepare skips a fresh dist/)', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'npx-cache-'));
    try {
      const before = (await stat(join(ROOT, 'dist/cli/main.js'))).mtimeMs;
      // A fresh npm cache: npx installs the package into it as a link and runs its `prepare`, as on a first use.
      const run = await exec('npx', ['--offline', '--yes', 'conformance', '--version'], { npm_config_cache: cache });
      expect(run.stderr).not.toMatch(/npm run build|tsc -p/);
      expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      expect(run.code).toBe(0);
      expect((await stat(join(ROOT, 'dist/cli/main.js'))).mtimeMs).toBe(before);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  }, 120_000);
});
