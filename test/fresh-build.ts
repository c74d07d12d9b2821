import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/cli.ts';

/**
 * What `npm run build` reads: the folders and files tsconfig.build.json includes (read from it, so that a folder added
 * there is watched here too), the specs, the JSON schemas and the configuration.
 */
export const INPUTS = [
  ...(JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include,
  'openapi',
  'schemas',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
];

/** The build's last outputs: tsc's main module and the suites' bundle that build/prepare-dist.ts writes after it. */
const OUTPUTS = ['dist/cli/main.js', 'dist/suites/bundle.js', 'dist/prepared/specs.json'];

/**
 * What runs write inside an input folder (gitignored): reports/out/, where this test run's own JSON results go and a
 * command's reports by default. Counted, it made every test run after the first build again (about 15 s of CPU).
 */
const OUTPUT_FOLDERS = [join(ROOT, 'reports', 'out')];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && !OUTPUT_FOLDERS.some((folder) => `${entry.parentPath}/`.startsWith(`${folder}/`)),
    )
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/**
 * vitest's global setup: the tests that run the command (test/support/cli.ts, in-process.ts) run the build in dist/,
 * which `npm ci` has just made; where a source is newer than the build (an edit since), it builds again first, so
 * that tests always see the code as edited.
 */
export default function freshBuild(): void {
  const built = OUTPUTS.map((file) => join(ROOT, file));
  const stale =
    !built.every((file) => existsSync(file)) ||
    Math.max(
      ...INPUTS.map((input) => join(ROOT, input))
        .filter(existsSync)
        .map(newestMtime),
    ) > Math.min(...built.map((file) => statSync(file).mtimeMs));
  if (!stale) return;
  process.stderr.write('dist/ is older than the sources: npm run build\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
}
