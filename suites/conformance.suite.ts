import { inject } from 'vitest';
import { commandRun, registerConformance } from './bundle-entry.ts';

registerConformance(await commandRun(inject('conformance')));
