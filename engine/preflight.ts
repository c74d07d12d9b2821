import { undici } from '../core/undici.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { APIS, runSecrets } from '../apis/index.ts';
import { credentialVariables, runAuthorization } from '../apis/descriptor.ts';
import type { AlertsTarget, ManagementTarget, RunConfig } from '../core/config.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { HarnessError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../core/http-client.ts';
import type { Probe } from '../core/probe.ts';
import { createRedactor } from '../core/redaction.ts';
import { createRequestGate } from '../core/request-gate.ts';
import { operationById, type Specs } from '../core/spec.ts';
import { alertNotUpdatable } from '../suites/support/alert-restore.ts';

/** What the preflight checked, as the one line the terminal shows, and the GET requests it sent. */
export interface PreflightReport {
  readonly line: string;
  readonly requests: number;
}

/**
 * The error codes (by prefix) of failures before any HTTP exchange: the target is not there. A target that connects and
 * then hangs or resets is judged by the run.
 */
const UNREACHABLE: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS',
  'CERT_',
  'DEPTH_ZERO',
  'SELF_SIGNED',
  'UNABLE_TO_',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
const EXCERPT_CHARS = 120;
const PROBE: Probe = Object.freeze({ intent: 'observe', klass: 'read', label: 'preflight: settings check' });

/** How one API's preflight sends its GETs and describes what came back. */
interface Checker {
  readonly client: HttpClient;
  readonly specs: Specs;
  readonly baseUrlVariable: string;
  readonly baseUrl: string;
  /** A short account of a response, secrets removed: `answered 404 (text/plain): "no such org"`. */
  readonly seen: (exchange: Exchange) => string;
}

/**
 * Sends a few authenticated GETs per API under test with the run's own settings before the first probe, and throws a
 * HarnessError naming the setting to fix when they show a configuration mistake (credentials refused, an id the
 * target does not know, a base URL that is not the API, an alert the run may not update, a target not reachable),
 * leaving every other answer (a 5xx, a timeout, a reset, a body off the contract) to the run.
 */
export async function preflight(config: RunConfig, specs: Specs): Promise<PreflightReport> {
  const dispatcher = new undici.Agent({ connections: 2, connect: { timeout: config.timeoutMs } });
  const deadline = Date.now() + config.budgetMs;
  const redact = createRedactor([], runSecrets(config)).text;
  let requests = 0;
  const common: Omit<HttpClientOptions, 'api' | 'baseUrl' | 'authorization'> = {
    timeoutMs: config.timeoutMs,
    maxResponseBytes: config.maxResponseBytes,
    gate: createRequestGate({ concurrency: config.concurrency, maxRps: config.maxRps, deadline }),
    dispatcher,
    deadline,
    backoffMs: DEFAULTS.rateLimitBackoffMs,
    maxRateLimitWaitMs: DEFAULTS.rateLimitMaxWaitMs,
    onExchange: () => {
      requests += 1;
    },
    onRateLimited: () => {
      requests += 1;
    },
  };
  const seen = (exchange: Exchange): string => redact(describe(exchange));
  try {
    const parts = await Promise.all([
      config.management &&
        checkManagement(config.management, {
          client: createHttpClient({
            ...common,
            api: 'management',
            baseUrl: config.management.baseUrl,
            authorization: runAuthorization(APIS.management, config) ?? '',
          }),
          specs,
          baseUrlVariable: APIS.management.settings.baseUrl.variable,
          baseUrl: config.management.baseUrl,
          seen,
        }),
      config.alerts &&
        checkAlerts(config.alerts, {
          client: createHttpClient({
            ...common,
            api: 'alerts',
            baseUrl: config.alerts.baseUrl,
            authorization: runAuthorization(APIS.alerts, config) ?? '',
          }),
          specs,
          baseUrlVariable: APIS.alerts.settings.baseUrl.variable,
          baseUrl: config.alerts.baseUrl,
          seen,
        }),
    ]);
    // The run's own gate starts afresh: keep --max-rps across the seam.
    if (config.maxRps > 0) await sleep(1000 / config.maxRps);
    return {
      line: `preflight: ${parts.filter(Boolean).join('; ')} (${requests} GET request${requests === 1 ? '' : 's'})`,
      requests,
    };
  } finally {
    await dispatcher.destroy();
  }
}

async function checkManagement(target: ManagementTarget, checker: Checker): Promise<string> {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const usageParams = { organizationId: target.organizationId };
  const usageQuery = { from_date: isoSeconds(today - 2 * DAY_MS), to_date: isoSeconds(today - DAY_MS) };
  const usage = await send(checker, 'getUsageCost', usageParams, usageQuery);
  const checked = ['credentials', 'organization'];
  const usageOutcome = outcome(checker, usage);
  if (usageOutcome === 'refused') {
    throw new HarnessError(
      'CREDENTIALS_REFUSED',
      `The management API refused the key: ${checker.seen(usage)}. Check ` +
        `${credentialVariables(APIS.management)}: a key of organization ${target.organizationId}, enabled ` +
        `and not expired${usage.response?.status === 403 ? ', with a role that may read usage costs' : ''}.`,
    );
  }
  if (usageOutcome === 'not-found') {
    const anonymous = await send(checker, 'getUsageCost', usageParams, usageQuery, null);
    if (anonymous.response?.status === 404) {
      throw new HarnessError(
        'NOT_THE_API',
        `${checker.baseUrlVariable} (${checker.baseUrl}) answers, but not as the management API: ` +
          `${checker.seen(usage)}, with the key and without it. Set ${checker.baseUrlVariable} to the URL ` +
          `under which the API's ${APIS.management.settings.pathPrefix}/... paths are served (or, if it is ` +
          'right, check ORGANIZATION_ID).',
      );
    }
    throw new HarnessError(
      'TARGET_UNKNOWN_ID',
      `ORGANIZATION_ID (--organization) ${target.organizationId} is not an organization the management API ` +
        `knows: ${checker.seen(usage)} (and ${anonymous.response ? anonymous.response.status : 'no answer'} ` +
        `without the key). Check ORGANIZATION_ID, or that ${checker.baseUrlVariable} is the URL under which ` +
        `${APIS.management.settings.pathPrefix}/... is served.`,
    );
  }
  if (usageOutcome !== 'ok') {
    assertUuids(checker, usage, [['ORGANIZATION_ID (--organization)', target.organizationId]]);
    return `management unchecked: ${usageOutcome}`;
  }
  if (target.backupId) {
    const backup = await send(checker, 'getBackup', {
      organizationId: target.organizationId,
      serviceId: target.serviceId,
      backupId: target.backupId,
    });
    const backupOutcome = outcome(checker, backup);
    if (backupOutcome === 'refused') {
      throw new HarnessError(
        'CREDENTIALS_REFUSED',
        `The management API refused the key on the backup read: ${checker.seen(backup)}. Check ` +
          `${credentialVariables(APIS.management)}, and that the key has a role that may read backups of ` +
          `service ${target.serviceId}.`,
      );
    }
    if (backupOutcome === 'not-found') {
      throw new HarnessError(
        'TARGET_UNKNOWN_ID',
        `BACKUP_ID (--backup) ${target.backupId} is not a backup the management API knows under SERVICE_ID ` +
          `(--service) ${target.serviceId}: ${checker.seen(backup)}. Check BACKUP_ID (a backup of that ` +
          'service) and SERVICE_ID, or unset BACKUP_ID to leave the backup read out.',
      );
    }
    if (backupOutcome !== 'ok') {
      assertUuids(checker, backup, [
        ['SERVICE_ID (--service)', target.serviceId],
        ['BACKUP_ID (--backup)', target.backupId],
      ]);
      return `management ${checked.join(', ')} ok, service and backup unchecked: ${backupOutcome}`;
    }
    checked.push('service and backup');
  }
  const service = target.backupId
    ? ''
    : '; SERVICE_ID unchecked (the API has no read of a service: an unknown one shows as a 404 on every pipe create)';
  return `management ${checked.join(', ')} ok${service}`;
}

async function checkAlerts(target: AlertsTarget, checker: Checker): Promise<string> {
  const list = await send(checker, 'listAlerts', {});
  const listOutcome = outcome(checker, list);
  if (listOutcome === 'refused') {
    const token = credentialVariables(APIS.alerts);
    throw new HarnessError(
      'CREDENTIALS_REFUSED',
      `The alerts API refused ${token}: ${checker.seen(list)}. Check ${token} (the ` +
        `${APIS.alerts.auth.scheme === 'bearer' ? 'Bearer token' : 'credentials'} of the alerts API at ` +
        `${checker.baseUrlVariable}).`,
    );
  }
  if (listOutcome === 'not-found') {
    throw new HarnessError(
      'NOT_THE_API',
      `${checker.baseUrlVariable} (${checker.baseUrl}) answers, but not as the alerts API: ` +
        `${checker.seen(list)}. Set ${checker.baseUrlVariable} to the URL under which the API's ` +
        `${APIS.alerts.settings.pathPrefix}/... paths are served.`,
    );
  }
  if (listOutcome !== 'ok') return `alerts unchecked: ${listOutcome}`;
  if (!target.alertId) return 'alerts token ok';
  const field = APIS.alerts.envelope.payload;
  const data = (list.response?.json as Record<string, unknown> | undefined)?.[field];
  if (!Array.isArray(data))
    return `alerts token ok, ALERT_ID unchecked (the list is not { ${field}: [...] }: left to the run)`;
  const wanted = target.alertId.toLowerCase();
  const alert = data.find(
    (a): a is Record<string, unknown> =>
      typeof a === 'object' && a !== null && String((a as { id?: unknown }).id).toLowerCase() === wanted,
  );
  if (!alert) {
    throw new HarnessError(
      'TARGET_UNKNOWN_ID',
      `ALERT_ID (--alert) ${target.alertId} is not among the ${data.length} alerts the alerts API lists ` +
        `(GET ${list.request.url}). Give the id of a listed alert, or unset ALERT_ID to let the run pick one.`,
    );
  }
  const reason = alertNotUpdatable(alert);
  if (reason) {
    throw new HarnessError(
      'ALERT_NOT_UPDATABLE',
      `ALERT_ID (--alert) ${target.alertId} names an alert the run may not update: ${reason}. Name a tile ` +
        'alert listed with every update field, or unset ALERT_ID to let the run pick one.',
    );
  }
  return `alerts token ok, alert ${target.alertId} updatable`;
}

function send(
  checker: Checker,
  operationId: string,
  params: Record<string, string>,
  query: Record<string, string> = {},
  authorization?: null,
): Promise<Exchange> {
  const operation = operationById(checker.specs, operationId);
  return checker.client.send({
    operation,
    probe: PROBE,
    params,
    query,
    ...(authorization === null ? { authorization } : {}),
  });
}

/**
 * What a preflight answer says about the settings: `ok` (a 2xx in JSON), `refused` (401, 403), `not-found` (404), or
 * else why it says nothing, in words that end the preflight's line (the run judges that answer). Throws
 * TARGET_UNREACHABLE when nothing answered at all, and NOT_THE_API for a 2xx that is not JSON at all.
 */
function outcome(checker: Checker, exchange: Exchange): string {
  const { failure, response } = exchange;
  if (failure) {
    const code = failure.message.split(':')[0] ?? failure.code;
    if (UNREACHABLE.some((prefix) => code.startsWith(prefix))) {
      throw new HarnessError(
        'TARGET_UNREACHABLE',
        `Cannot reach ${checker.baseUrlVariable} (${checker.baseUrl}): ${code}. Check the URL and that the ` +
          'target is up.',
      );
    }
    return `${operationLabel(exchange)} got no answer (${failure.code}), left to the run`;
  }
  if (!response) return `${operationLabel(exchange)} got no answer, left to the run`;
  if (response.status >= 200 && response.status < 300) {
    if (response.json === undefined && !/json/i.test(response.headers['content-type'] ?? '')) {
      throw new HarnessError(
        'NOT_THE_API',
        `${checker.baseUrlVariable} (${checker.baseUrl}) answers, but not as the ${exchange.api} API: ` +
          `${checker.seen(exchange)}, not JSON. Set ${checker.baseUrlVariable} to the ${exchange.api} API's ` +
          'base URL.',
      );
    }
    return 'ok';
  }
  if (response.status === 401 || response.status === 403) return 'refused';
  if (response.status === 404) return 'not-found';
  return `${operationLabel(exchange)} answered ${response.status}, left to the run`;
}

/** A 4xx other than 401, 403 and 404 to a valid read is the run's to judge, unless an id sent was not a uuid. */
function assertUuids(checker: Checker, exchange: Exchange, ids: readonly (readonly [string, string])[]): void {
  const status = exchange.response?.status ?? 0;
  if (status < 400 || status >= 500 || status === 429) return;
  const bad = ids.filter(([, value]) => !UUID.test(value));
  if (bad.length === 0) return;
  const values = bad.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(' and ');
  const verb = bad.length === 1 ? 'is not a uuid' : 'are not uuids';
  const settings = bad.map(([name]) => name.split(' ')[0]).join(' and ');
  throw new HarnessError(
    'TARGET_UNKNOWN_ID',
    `${values} ${verb} (the management API's ids are uuids), and ${checker.seen(exchange)}. Check ${settings}.`,
  );
}

function describe(exchange: Exchange): string {
  const { response } = exchange;
  if (!response) return `${operationLabel(exchange)} got no answer`;
  const type = response.headers['content-type'];
  const text = response.text.replace(/\s+/g, ' ').trim();
  const excerpt =
    text === '' ? ', empty body' : `: ${text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}...` : text}`;
  return `${operationLabel(exchange)} answered ${response.status}${type ? ` (${type})` : ''}${excerpt}`;
}

function operationLabel(exchange: Exchange): string {
  return `${exchange.request.method} ${exchange.request.url}`;
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
