import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { runActionStep } from './action-step.ts';

// The body of the GitHub Action's run step (action.yml runs its compiled form from dist/): the command as installed.
const command = [process.execPath, join(PACKAGE_ROOT, 'bin', 'conformance.js')];
process.exitCode = await runActionStep(process.env, command, process.cwd());
