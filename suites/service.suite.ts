import { conformanceSuite } from './support/conformance-suite.ts';
import { serviceSuite } from './service.ts';

conformanceSuite(serviceSuite);
