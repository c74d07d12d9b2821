import * as fc from 'fast-check';
import type { InvalidGenerator } from './invalidGenerator.ts';

/** Near misses of `start` only: a target that folds case or trims must not be left stopped by a rejection probe. */
const BAD_COMMANDS = Object.freeze(['restart', 'START', 'Start', '', ' start', 'start ', 'pause', 'resume', 'started']);

/** Whether a target that folds case or trims could read `command` as `stop`. */
const readsAsStop = (command: string): boolean => command.trim().toLowerCase().startsWith('stop');

/**
 * Values for `command` other than the strings `start` and `stop`: near misses of `start`, random strings (none that a
 * lenient target could read as `stop`), and non-strings (numbers, booleans, null, arrays, objects).
 */
export const serviceCommandInvalid: InvalidGenerator<unknown> = Object.freeze({
  breaks: 'service.command',
  description: 'a service state command other than start or stop, including near misses and non-string values',
  arbitrary: () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<unknown>(...BAD_COMMANDS) },
      { weight: 1, arbitrary: fc.string().filter((s) => s !== 'start' && !readsAsStop(s)) },
      { weight: 2, arbitrary: fc.constantFrom<unknown>(1, 0, null, true, false, ['start'], { command: 'start' }) },
    ),
  witness: (command: unknown) => command !== 'start' && command !== 'stop',
});
