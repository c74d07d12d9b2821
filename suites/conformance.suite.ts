import { inject } from 'vitest';
import { registerConformance } from './support/conformance-suite.ts';
import './support/provided.ts';

registerConformance(inject('conformance'));
