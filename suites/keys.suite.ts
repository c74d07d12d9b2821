import { conformanceSuite } from './support/conformance-suite.ts';
import { keysSuite } from './keys.ts';

conformanceSuite(keysSuite);
