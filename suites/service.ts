import { serviceCommandInvalid } from '../generators/index.ts';
import { accessGroups, type AccessTarget } from './access-groups.ts';
import { authGroups, malformedJsonGroups } from './auth-group.ts';
import { neighbourhoodGroups } from './neighbourhood.ts';
import { accept, fromExample, reject } from '../engine/probe.ts';
import type { SuiteDefinition } from '../engine/suite-types.ts';

const RULE = 'service.command';

/** A start of the service (which a running service takes as a no-op), for the credential and access probes. */
/** The group that stops the service and starts it again: every other group, a request to be refused, runs after it. */
const STOP_START = 'stop, then start';

const START: AccessTarget = {
  operationId: 'changeServiceState',
  api: 'management',
  scope: 'organization',
  after: [STOP_START],
  request: () => ({ json: { command: 'start' } }),
};

/**
 * The service suite: stop then start, invalid commands, malformed bodies, credentials; every request to the state
 * operation is `disruptive`.
 */
export function serviceSuite(): SuiteDefinition {
  return {
    name: 'service',
    operations: ['changeServiceState'],
    groups: [
      {
        name: STOP_START,
        operations: ['changeServiceState'],
        feeds: [`${RULE}#start accepted`, `${RULE}#stop accepted`],
        estimate: () => 2,
        // The start puts back what the stop changed.
        putBacks: { most: 1, estimated: 1 },
        async run(context) {
          const answers: string[] = [];
          for (const command of ['stop', 'start']) {
            const exchange = await context.send('changeServiceState', {
              json: { command },
              probe: accept(`command ${command}`, { rules: [RULE], restores: command === 'start' || undefined }),
            });
            answers.push(`${command} got ${exchange.response?.status ?? exchange.failure?.code}`);
            // The gate refused the stop (budget, time, or an interrupt): it was not sent, so there is nothing to put
            // back.
            if (command === 'stop' && (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted'))
              return;
          }
          if (answers[1] !== 'start got 200') {
            context.incident(
              `The service ${context.config.management?.serviceId ?? ''} was sent stop, then start ` +
                `(${answers.join(', ')}): it may be left stopped. Check it and start it by hand.`,
            );
          }
        },
      },
      {
        name: 'invalid commands',
        operations: ['changeServiceState'],
        after: [STOP_START],
        feeds: [`${RULE}#other commands rejected`],
        estimate: (runs) => 9 + runs,
        async run(context) {
          // Other words, other case, padded, a homoglyph, empty, not a string: each its own request. None reads as
          // `stop` however a target folds it, so that a lenient target is left running.
          const fixed: unknown[] = ['restart', 'START', 'Start', 'start ', ' start', '\u0455tart', '', null];
          await Promise.all([
            ...fixed.map((command) =>
              context.send('changeServiceState', {
                json: { command },
                probe: reject(`command ${JSON.stringify(command)}`, RULE),
              }),
            ),
            context.send('changeServiceState', { json: {}, probe: reject('no command', RULE) }),
            context.eachExample('invalid command', serviceCommandInvalid.arbitrary(), (ex) =>
              context.send('changeServiceState', {
                json: { command: ex.value },
                probe: reject(`command ${JSON.stringify(ex.value)}`, RULE, fromExample(ex)),
              }),
            ),
          ]);
        },
      },
      ...malformedJsonGroups([{ operationId: 'changeServiceState', after: [STOP_START] }]),
      ...authGroups([START]),
      ...accessGroups([START]),
      ...neighbourhoodGroups([
        {
          operationId: 'changeServiceState',
          after: [STOP_START],
          readsOnly:
            "a request to the service's state could stop the service on a broken target, which is not the run's own: " +
            'only methods that read (GET, HEAD, OPTIONS) go there',
          request: () => ({}),
        },
      ]),
    ],
  };
}
