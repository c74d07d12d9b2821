import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PREPARED_SPECS_FILE, prepareSpecs } from '../spec/prepared-specs.ts';
import { specsOf } from '../spec/spec.ts';
import { PREPARED_VALIDATORS_FILE, preparedValidatorsCode } from '../spec/validators.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import { bundleSuites } from './suite-bundle.ts';

// The last step of `npm run build`: prepares what every run would otherwise redo at start-up. It writes both specs
// dereferenced (dist/prepared/specs.json) and the Ajv validation code of every schema in them, generated with the same
// settings as at run time (dist/prepared/validators.cjs, filed by each schema's fingerprint), and bundles the modules
// the command's run thread loads (dist/suites/bundle.js, see suite-bundle.ts).
const prepared = await prepareSpecs();
const { operations } = specsOf({ ...prepared.documents });
const validators = preparedValidatorsCode(operations);
await mkdir(dirname(PREPARED_SPECS_FILE), { recursive: true });
await writeFile(PREPARED_SPECS_FILE, JSON.stringify(prepared));
await writeFile(PREPARED_VALIDATORS_FILE, validators.code);
await bundleSuites(join(PACKAGE_ROOT, 'dist'));
// Build messages go to standard error, so that `npm pack --json` (which runs the build through `prepare`) prints JSON
// alone.
process.stderr.write(
  `prepared ${operations.length} operations and ${validators.count} validators in ` +
    `${dirname(PREPARED_SPECS_FILE)}, and bundled the suites\n`,
);
