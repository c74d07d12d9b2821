import { conformanceSuite } from './support/conformance-suite.ts';
import { backupsSuite } from './backups.ts';

conformanceSuite(backupsSuite);
