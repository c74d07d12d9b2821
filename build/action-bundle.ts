import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../core/package-root.ts';

/** Where the GitHub Action's committed bundle is, under the repository's root (action.yml runs it from there). */
export const ACTION_BUNDLE_DIR = join('action', 'bundle');

/**
 * Lets a bundled module's `createRequire(import.meta.url)` calls be bundled: their literal `require('pkg')` calls then
 * name the bundle's copy of the package, since the bundle runs where no `node_modules` is (a fresh checkout).
 */
const OWN_REQUIRE = /^const require = createRequire\(import\.meta\.url\);$/m;

/** reference/main.ts's guard that runs it when Node was given its file. */
const RUN_AS_SCRIPT =
  /^if \(process\.argv\[1\] !== undefined && import\.meta\.url === pathToFileURL\(process\.argv\[1\]\)\.href\) \{$/m;

/**
 * Bundles the command (cli/entry.ts, as `conformance.js`) and the action's run step (cli/action-entry.ts, as
 * `action.js`) with every package they load into `outDir`, so that the action runs the code of its own ref with Node
 * alone and installs nothing. Two folders deep, as `dist/cli/` is, so that the package root found from
 * `import.meta.url` is the repository's (the specs in `openapi/`, `package.json`).
 */
export async function bundleAction(outDir: string = join(PACKAGE_ROOT, ACTION_BUNDLE_DIR)): Promise<void> {
  // esbuild is a devDependency: it loads here, at build time, never in a run.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: { conformance: 'cli/entry.ts', action: 'cli/action-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: outDir,
    minify: true,
    keepNames: true,
    legalComments: 'none',
    charset: 'utf8',
    // A require the bundle cannot resolve at build time (a file found at run time) is Node's.
    banner: {
      js: "import{createRequire as __bundleRequire}from'node:module';const require=__bundleRequire(import.meta.url);",
    },
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-require',
        setup(plugin) {
          plugin.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
            let contents = (await readFile(path, 'utf8')).replace(OWN_REQUIRE, '');
            if (path.endsWith(join('reference', 'main.ts'))) {
              // In the bundle, the module is the bundle's file, which is what Node ran: its run-as-a-script guard
              // would hold for every command.
              if (!RUN_AS_SCRIPT.test(contents)) throw new Error(`${path}: its run-as-a-script guard has changed`);
              contents = contents.replace(RUN_AS_SCRIPT, 'if (false) {');
            }
            return { contents, loader: 'ts' };
          });
        },
      },
    ],
  });
}

// `npm run bundle-action`: writes the bundle where action.yml runs it (or into the folder named).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bundleAction(process.argv[2]);
  process.stderr.write(`bundled the action into ${process.argv[2] ?? ACTION_BUNDLE_DIR}\n`);
}
