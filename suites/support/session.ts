import { undici } from '../../core/undici.ts';
import type { RunConfig } from '../../core/config.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { createPacers } from '../../core/credential-pacer.ts';
import { createHttpClient, type HttpClient } from '../../core/http-client.ts';
import { openHarSpool, type HarSpool } from '../../core/har-spool.ts';
import { createRedactor, type Redactor } from '../../core/redaction.ts';
import { createRequestGate, type RequestGate } from '../../core/request-gate.ts';
import { openRunChannel, type RunChannel } from '../../core/run-channel.ts';
import { createSecretIndex, type SecretIndex } from '../../core/secret-index.ts';
import type { Operation, Specs } from '../../core/spec.ts';
import { createValidators, type Validators } from '../../core/validators.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { CreatedResource } from '../../core/run-report.ts';
import { APIS, API_LIST } from '../../apis/index.ts';
import { runAuthorization, secretCredentials } from '../../core/api-descriptor.ts';
import { redactedNames } from '../../rules/secrets.ts';
import { createShrinkBudget, type ShrinkBudget } from './shrink.ts';

/** State shared by every suite of a run: the limits, the secrets, the requestIds seen. Built once per run and handed to the suites. */
export interface Session {
  readonly config: RunConfig;
  readonly specs: Specs;
  readonly validators: Validators;
  readonly gate: RequestGate;
  readonly redactor: Redactor;
  /** Secret values sent in requests so far: what `secrets.absent` scans responses for. */
  readonly sentSecrets: SecretIndex;
  readonly seenRequestIds: Set<string>;
  /** With `--har`: where each exchange's HAR entry is written as it is recorded. */
  readonly har?: HarSpool;
  /** The shrink requests the run has sent, against its cap (`suites/support/shrink.ts`). */
  readonly shrinkBudget: ShrinkBudget;
  /** Counts violations found, for the progress the main thread shows. */
  countViolations(count: number): void;
  /** Tells the main thread what a suite left on the target, as it happens. */
  announceCreated(suite: string, resource: CreatedResource): void;
  /** Builds clients for both configured APIs that report every exchange to `onExchange`. */
  clients(onExchange: (exchange: Exchange) => void, onRateLimited: () => void): { management?: HttpClient; alerts?: HttpClient };
  operation(operationId: string): Operation;
  /** Closes the connection pool, once every group has run (the channel is unref'd, so that messages still on their way arrive). */
  close(): Promise<void>;
}

/** How a session hears of interrupts and reports progress: over the run's channel to the command's thread, or not at all (a team's own vitest run). */
export interface SessionOptions {
  /** False: no channel (no command thread listens); Ctrl-C is then vitest's own. Default true. */
  readonly channel?: boolean;
  /** Requests the run sent before the session (the preflight's): `--max-requests` counts them too. */
  readonly spent?: number;
}

/** Creates the session of a run, on the specs the command loaded: sets up the shared gate, pacers and connection pool. */
export async function createSession(config: RunConfig, specs: Specs, options: SessionOptions = {}): Promise<Session> {
  const deadline = Date.now() + config.budgetMs;
  const gate = createRequestGate({
    concurrency: config.concurrency,
    maxRps: config.maxRps,
    deadline,
    ...(config.maxRequests ? { maxRequests: Math.max(0, config.maxRequests - (options.spent ?? 0)) } : {}),
  });
  const channel: RunChannel | undefined = options.channel === false ? undefined : openRunChannel(config);
  channel?.onStop(() => gate.interrupt());
  if (await channel?.hello()) gate.interrupt();
  const counts = { rateLimited: 0, violations: 0 };
  const report = (): void => channel?.report({ sent: gate.sent(), ...counts });
  const pacers = createPacers({ maxHoldMs: DEFAULTS.rateLimitMaxWaitMs, deadline });
  const dispatcher = new undici.Agent({ connections: config.concurrency, keepAliveTimeout: 4_000, connect: { timeout: config.timeoutMs } });
  const configSecrets = API_LIST.flatMap((api) => secretCredentials(api, config));
  const redactor = createRedactor(redactedNames(specs), configSecrets);
  const sentSecrets = createSecretIndex(configSecrets);
  const byId = new Map(specs.operations.map((op) => [op.operationId, op]));
  const har = config.har === undefined ? undefined : openHarSpool(config.har);

  return {
    config,
    specs,
    validators: createValidators(),
    gate,
    redactor,
    sentSecrets,
    seenRequestIds: new Set(),
    ...(har ? { har } : {}),
    shrinkBudget: createShrinkBudget(),
    countViolations(count) {
      counts.violations += count;
    },
    announceCreated: (suite, resource) => channel?.created(suite, resource),
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`openapi/ defines no operation ${operationId}`);
      return op;
    },
    clients(onExchange, onRateLimited) {
      const common = {
        timeoutMs: config.timeoutMs,
        maxResponseBytes: config.maxResponseBytes,
        gate,
        pacers,
        dispatcher,
        deadline,
        backoffMs: DEFAULTS.rateLimitBackoffMs,
        maxRateLimitWaitMs: DEFAULTS.rateLimitMaxWaitMs,
        onExchange: (exchange: Exchange) => {
          onExchange(exchange);
          report();
        },
        onRateLimited: () => {
          counts.rateLimited += 1;
          onRateLimited();
          report();
        },
      };
      const authorization = (api: keyof typeof APIS): string => runAuthorization(APIS[api], config) ?? '';
      return {
        ...(config.management ? { management: createHttpClient({ ...common, api: 'management', baseUrl: config.management.baseUrl, authorization: authorization('management') }) } : {}),
        ...(config.alerts ? { alerts: createHttpClient({ ...common, api: 'alerts', baseUrl: config.alerts.baseUrl, authorization: authorization('alerts') }) } : {}),
      };
    },
    async close() {
      await Promise.all([dispatcher.close(), har?.close()]);
    },
  };
}
