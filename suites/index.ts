import { alertsSuite } from './alerts/alerts.ts';
import { backupsSuite } from './backups.ts';
import { keysSuite } from './keys.ts';
import { pipesSuite } from './pipes/pipes.ts';
import { serviceSuite } from './service.ts';
import { usageSuite } from './usage.ts';
import type { SuiteDefinition } from '../engine/suite-types.ts';

/**
 * Every suite, as factories of fresh definitions: what the planner, `--dry-run` and the registration
 * (`registerConformance`) read.
 */
export const SUITES: readonly (() => SuiteDefinition)[] = Object.freeze([
  alertsSuite,
  pipesSuite,
  keysSuite,
  usageSuite,
  serviceSuite,
  backupsSuite,
]);
