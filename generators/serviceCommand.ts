import * as fc from 'fast-check';

/** A command of the service state operation. */
export type ServiceCommand = 'start' | 'stop';

/** Valid service commands, `start` or `stop`, from `commands` when given. */
export function serviceCommand(
  constraints: { commands?: readonly ServiceCommand[] } = {},
): fc.Arbitrary<ServiceCommand> {
  const { commands = ['start', 'stop'] } = constraints;
  return fc.constantFrom(...commands);
}
