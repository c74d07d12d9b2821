import { serviceCommandInvalid } from '../generators/index.ts';
import { authGroup, malformedJsonGroup } from './support/auth-group.ts';
import { accept, fromExample, reject } from './support/probe.ts';
import type { SuiteDefinition } from './support/suite-types.ts';

const RULE = 'service.command';

/** The service suite: stop then start, invalid commands, malformed bodies, credentials. */
export function serviceSuite(): SuiteDefinition {
  return {
  name: 'service',
  operations: ['changeServiceState'],
  groups: [
    {
      name: 'stop, then start',
      klass: 'disruptive',
      operations: ['changeServiceState'],
      estimate: () => 2,
      async run(context) {
        const answers: string[] = [];
        for (const command of ['stop', 'start']) {
          const exchange = await context.send('changeServiceState', { json: { command }, probe: accept('disruptive', `command ${command}`, { rules: [RULE], restores: command === 'start' || undefined }) });
          answers.push(`${command} got ${exchange.response?.status ?? exchange.failure?.code}`);
          if (command === 'stop' && exchange.failure?.code === 'budget') return; // stop not sent (interrupt, budget): nothing to put back
        }
        const started = answers[1] === 'start got 200';
        context.created({
          kind: 'service-state',
          id: context.config.management?.serviceId ?? '',
          operation: 'changeServiceState',
          note: `sent stop, then start (${answers.join(', ')}): ${started ? 'the service is left started' : 'the service may be left stopped: check it and start it by hand'}`,
        });
      },
    },
    {
      name: 'invalid commands',
      klass: 'read',
      operations: ['changeServiceState'],
      estimate: (runs) => 5 + runs,
      async run(context) {
        const fixed: unknown[] = ['restart', 'START', '', null];
        await Promise.all([
          ...fixed.map((command) => context.send('changeServiceState', { json: { command }, probe: reject(`command ${JSON.stringify(command)}`, RULE) })),
          context.send('changeServiceState', { json: {}, probe: reject('no command', RULE) }),
          ...context.examples('invalid command', serviceCommandInvalid.arbitrary()).map((ex) =>
            context.send('changeServiceState', { json: { command: ex.value }, probe: reject(`command ${JSON.stringify(ex.value)}`, RULE, fromExample(ex)) })),
        ]);
      },
    },
    malformedJsonGroup([{ operationId: 'changeServiceState' }]),
    authGroup([{ operationId: 'changeServiceState', api: 'management', request: () => ({ json: { command: 'start' } }) }]),
  ],
};
}
