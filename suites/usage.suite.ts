import { conformanceSuite } from './support/conformance-suite.ts';
import { usageSuite } from './usage.ts';

conformanceSuite(usageSuite);
