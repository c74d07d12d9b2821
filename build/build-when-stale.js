// `npm run build` when dist/ is older than the sources or missing, else nothing: `prepare` (npm ci, a git install, npm
// pack, and npx conformance in a clone, which installs the clone into npx's cache and runs its `prepare`) and the
// tests' global setup. Plain JavaScript: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: the folder above build/. */
const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * What `npm run build` reads: the folders and files tsconfig.build.json includes (read from it, so that a folder added
 * there is watched here too), the specs, the JSON schemas and the configuration.
 */
export const INPUTS = [
  ...JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')).include,
  'openapi',
  'schemas',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
];

/** The build's last outputs: tsc's main module and the suites' bundle that build/prepare-dist.ts writes after it. */
const OUTPUTS = ['dist/cli/main.js', 'dist/suites/bundle.js', 'dist/prepared/specs.json'];

/**
 * What runs write inside an input folder (gitignored): reports/out/, where the tests' own JSON results go and a
 * command's reports by default. Counted, it made every test run after the first build again (about 15 s of CPU).
 */
const OUTPUT_FOLDERS = [join(ROOT, 'reports', 'out')];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && !OUTPUT_FOLDERS.some((folder) => `${entry.parentPath}/`.startsWith(`${folder}/`)),
    )
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/** Whether dist/ is missing an output or older than a source. */
export function isStale() {
  const built = OUTPUTS.map((file) => join(ROOT, file));
  if (!built.every((file) => existsSync(file))) return true;
  const newestInput = Math.max(
    ...INPUTS.map((input) => join(ROOT, input))
      .filter(existsSync)
      .map(newestMtime),
  );
  return newestInput > Math.min(...built.map((file) => statSync(file).mtimeMs));
}

/** Builds dist/ (`npm run build`) when it is stale; says so on stderr. */
export function buildWhenStale() {
  if (!isStale()) return;
  process.stderr.write('dist/ is older than the sources: npm run build\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
}

// Run as a script (`node build/build-when-stale.js`), not imported.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) buildWhenStale();
