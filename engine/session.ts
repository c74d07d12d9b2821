import type { RunConfig } from '../settings/config.ts';
import type { HttpClient } from '../transport/http-client.ts';
import { openHarSpool, type HarSpool } from '../evidence/har-spool.ts';
import { createRedactor, type Redactor } from '../secrets/redaction.ts';
import { createSecretRegistry, redactedNames } from '../secrets/secret-registry.ts';
import type { RequestGate } from '../transport/request-gate.ts';
import { openRunChannel, type RunLink, type RunReporter } from '../run/run-channel.ts';
import type { Operation, Specs } from '../spec/spec.ts';
import { createValidators, type Validators } from '../spec/validators.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { CreatedResource } from '../run/run-report-types.ts';
import type { ApiName } from '../apis/index.ts';
import { RULES } from '../rules/index.ts';
import { createMemories, type RuleMemories } from '../rule-model/rule.ts';
import { openRunTransport } from './run-transport.ts';
import { createShrinkBudget, type ShrinkBudget } from './shrink-budget.ts';
import { type PutBacks, putBacksBeyond } from '../core/probe-types.ts';

/**
 * State shared by every suite of a run: the limits, the secrets, the requestIds seen. Built once per run and handed to
 * the suites.
 */
export interface Session {
  readonly config: RunConfig;
  readonly specs: Specs;
  readonly validators: Validators;
  readonly gate: RequestGate;
  /** The thread's one redactor, and through it the run's one registry of secrets (`redactor.secrets`). */
  readonly redactor: Redactor;
  /** Each rule's memory of the run (the secrets sent, the requestIds seen), for the rules that keep one. */
  readonly memories: RuleMemories;
  /** With `--har`: where each exchange's HAR entry is written as it is recorded. */
  readonly har?: HarSpool;
  /** What the run may spend on shrinking, and what it has spent (`engine/shrink-budget.ts`). */
  readonly shrinkBudget: ShrinkBudget;
  /** Counts violations found, for the progress the main thread shows. */
  countViolations(count: number): void;
  /** Tells the main thread what a suite left on the target, as it happens. */
  announceCreated(suite: string, resource: CreatedResource): void;
  /** Builds clients for both configured APIs whose `send` returns what `onExchange` makes of each exchange. */
  clients<R>(onExchange: (exchange: Exchange) => R, onRateLimited: () => void): Partial<Record<ApiName, HttpClient<R>>>;
  operation(operationId: string): Operation;
  /**
   * Closes the connection pool and the run's channel, once every group has run (what it had still to tell the command
   * goes first; a message posted arrives though its channel is closed).
   */
  close(): Promise<void>;
}

/**
 * How a session hears of interrupts and reports progress: over the run's channel to the command's thread, or not at all
 * (a team's own vitest run).
 */
export interface SessionOptions {
  /** The run's link to the command's thread (`runLink`); without one, none listens and Ctrl-C is vitest's own. */
  readonly channel?: RunLink;
  /**
   * The thread's one redactor, which the preflight used, on the run's registry of secrets; the session makes one when
   * none is given.
   */
  readonly redactor?: Redactor;
  /** Requests the run sent before the session (the preflight's): `--max-requests` counts them too. */
  readonly spent?: number;
  /** Requests the plan sends, the preflight's included: with `--max-requests`, shrinking spends only what is left. */
  readonly planned?: number;
  /** The put-backs the plan may send (`Plan.putBacks`): with `--max-requests`, the gate keeps `most` for them. */
  readonly putBacks?: PutBacks;
  /** With `--max-rps`: when the preflight's rate lets the next request start (epoch ms), so that it holds across. */
  readonly notBefore?: number;
}

/**
 * Creates the session of a run, on the specs the command loaded: sets up the shared gate, pacers and connection pool.
 */
export async function createSession(config: RunConfig, specs: Specs, options: SessionOptions = {}): Promise<Session> {
  const putBacks = options.putBacks ?? { most: 0, estimated: 0 };
  const transport = openRunTransport(config, {
    connections: config.concurrency,
    keepAliveTimeoutMs: 4_000,
    ...(config.maxRequests
      ? { maxRequests: Math.max(0, config.maxRequests - (options.spent ?? 0)), putBacks: putBacks.most }
      : {}),
    ...(options.notBefore === undefined ? {} : { notBefore: options.notBefore }),
  });
  const { gate } = transport;
  const channel: RunReporter | undefined = options.channel === undefined ? undefined : openRunChannel(options.channel);
  channel?.onStop(() => gate.interrupt());
  const counts = { rateLimited: 0, shrinking: 0, violations: 0 };
  const report = (): void => channel?.report({ sent: gate.sent(), ...counts });
  const redactor = options.redactor ?? createRedactor(redactedNames(specs), createSecretRegistry(config));
  const byId = new Map(specs.operations.map((op) => [op.operationId, op]));
  const har = config.har === undefined ? undefined : openHarSpool(config.har);

  return {
    config,
    specs,
    validators: createValidators(),
    gate,
    redactor,
    memories: createMemories(RULES, { config, specs, secrets: redactor.secrets }),
    ...(har ? { har } : {}),
    shrinkBudget: createShrinkBudget({
      gate,
      ...(config.maxRequests === undefined ? {} : { maxRequests: config.maxRequests }),
      ...(options.planned === undefined ? {} : { planned: options.planned }),
      putBacks: putBacksBeyond(putBacks),
    }),
    countViolations(count) {
      counts.violations += count;
    },
    announceCreated: (suite, resource) => channel?.created(suite, resource),
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`openapi/ defines no operation ${operationId}`);
      return op;
    },
    clients<R>(onExchange: (exchange: Exchange) => R, onRateLimited: () => void) {
      return transport.clients({
        onExchange: (exchange) => {
          const sent = exchange.failure?.code !== 'budget' && exchange.failure?.code !== 'interrupted';
          if (exchange.probe.shrink && sent) counts.shrinking += 1;
          const recorded = onExchange(exchange);
          report();
          return recorded;
        },
        onRateLimited: () => {
          counts.rateLimited += 1;
          onRateLimited();
          report();
        },
      });
    },
    async close() {
      channel?.end();
      await Promise.all([transport.close(), har?.close()]);
    },
  };
}
