import { inject } from 'vitest';
import { commandRun } from '../engine/command-run.ts';
import { registerConformance } from './support/conformance-suite.ts';

registerConformance(await commandRun(inject('conformance')));
