import { conformanceSuite } from './support/conformance-suite.ts';
import { alertsSuite } from './alerts.ts';

conformanceSuite(alertsSuite);
