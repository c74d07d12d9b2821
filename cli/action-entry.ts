import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { runActionStep } from './action-step.ts';

// The body of the GitHub Action's run step (action.yml runs its bundle, action/bundle/action.js): the command beside
// it in the bundle, else (compiled, in dist/) the command as installed.
const bundled = fileURLToPath(new URL('./conformance.js', import.meta.url));
const command = [process.execPath, existsSync(bundled) ? bundled : join(PACKAGE_ROOT, 'bin', 'conformance.js')];
process.exitCode = await runActionStep(process.env, command, process.cwd());
