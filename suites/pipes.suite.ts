import { conformanceSuite } from './support/conformance-suite.ts';
import { pipesSuite } from './pipes.ts';

conformanceSuite(pipesSuite);
