import * as fc from 'fast-check';
import type { InvalidGenerator } from './invalidGenerator.ts';

const BAD_COMMANDS = Object.freeze([
  'restart',
  'START',
  'Stop',
  '',
  ' start',
  'stop ',
  'pause',
  'resume',
  'started',
  'stopped',
]);

/**
 * Values for `command` other than the strings `start` and `stop`: near-miss strings, random strings, and non-strings
 * (numbers, booleans, null, arrays, objects).
 */
export const serviceCommandInvalid: InvalidGenerator<unknown> = Object.freeze({
  breaks: 'service.command',
  description: 'a service state command other than start or stop, including near misses and non-string values',
  arbitrary: () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<unknown>(...BAD_COMMANDS) },
      { weight: 1, arbitrary: fc.string().filter((s) => s !== 'start' && s !== 'stop') },
      { weight: 2, arbitrary: fc.constantFrom<unknown>(1, 0, null, true, false, ['start'], { command: 'start' }) },
    ),
  witness: (command: unknown) => command !== 'start' && command !== 'stop',
});
