import { inject } from 'vitest';
import { registerConformance } from './support/conformance-suite.ts';
import { providedRun } from './support/provided.ts';

registerConformance(providedRun(inject('conformance')));
