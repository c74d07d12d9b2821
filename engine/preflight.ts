import { API_LIST } from '../apis/index.ts';
import {
  type ApiDescriptor,
  authorizationHeader,
  credentialSettings,
  type IdSetting,
  idVariable,
  otherCredentialsIn,
  otherTenantSettings,
  type TargetFields,
  targetOf,
} from '../apis/descriptor.ts';
import type { ListedId, PreflightCode, PreflightWords } from '../apis/preflight-reads.ts';
import type { RunConfig } from '../settings/config.ts';
import { HarnessError, type HarnessErrorCode } from '../core/errors.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { HttpClient } from '../transport/http-client.ts';
import type { Probe } from '../core/probe-types.ts';
import { createSecretRegistry } from '../secrets/secret-registry.ts';
import { createRedactor, type Redactor } from '../secrets/redaction.ts';
import { type ConnectionWatch, watchConnections } from '../transport/connection-watch.ts';
import { operationById, type Specs } from '../spec/spec.ts';
import { isUuid } from '../core/uuid.ts';
import type { CreatedResource } from '../run/run-report-types.ts';
import { HEADER_SETTINGS } from '../settings/request-headers.ts';
import type { ConfirmingWrite } from './suite-types.ts';
import { writeRecord } from './write-record.ts';
import { clientCertAnswer, networkFailure } from './network-failure.ts';
import { otherTenantRead } from './preflight-plan.ts';
import { openRunTransport } from './run-transport.ts';

/** What the preflight checked, as the one line the terminal shows, and the requests it sent. */
export interface PreflightReport {
  readonly line: string;
  readonly requests: number;
  /** What its confirming writes created on the target (a pipe that confirmed SERVICE_ID), for the run's list. */
  readonly created?: readonly CreatedResource[];
  /** With `--max-rps`: when its rate lets the run's first request start (epoch ms), so that the rate holds across. */
  readonly nextStart?: number;
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
  'ERR_SSL',
];

/** The most of an answer's body a message quotes: the target's own explanation, whole as a rule. */
const EXCERPT_CHARS = 600;
const PROBE: Probe = Object.freeze({ intent: 'observe', klass: 'read', label: 'preflight: settings check' });

// A preflight code that core/errors.ts does not list fails the type check here.
true satisfies [Exclude<PreflightCode, HarnessErrorCode>] extends [never] ? true : PreflightCode;

/** How one API's preflight sends its GETs and describes what came back. */
interface Checker {
  readonly client: HttpClient;
  readonly specs: Specs;
  readonly baseUrlVariable: string;
  readonly baseUrl: string;
  /** A short account of a response, secrets removed: `answered 404 (text/plain): "no such org"`. */
  readonly seen: (exchange: Exchange) => string;
  /** A text with the run's secrets removed. */
  readonly redact: (text: string) => string;
  readonly network: RunConfig['network'];
  readonly connections: ConnectionWatch;
  /** The names of the headers the run adds to this API's requests, for a refusal's message. */
  readonly headers: readonly string[];
  /** The settings that give those headers, as the user named them (`--management-header`, `CONFORMANCE_HEADERS`). */
  readonly headerSettings: readonly string[];
  /** A setting of the API's target by its field, as the user named it. */
  readonly name: (field: string) => string;
  /** The API's security scheme (`basic`, `bearer`), which its 401 names in `WWW-Authenticate`. */
  readonly scheme: string;
  /** The API's credential settings as the user named them: `MANAGEMENT_KEY_ID and MANAGEMENT_KEY_SECRET`. */
  readonly credentialNames: string;
}

/**
 * Sends a few authenticated GETs per API under test with the run's own settings before the first probe, and throws a
 * HarnessError naming the setting to fix when they show a configuration mistake (credentials refused, an id the
 * target does not know, a base URL that is not the API, a listed id the run may not use, a target not reachable),
 * leaving every other answer (a 5xx, a timeout, a reset, a body off the contract) to the run. What it says of an
 * answer is redacted by the thread's one redactor (`redactor`: the run's, a test's own by default).
 */
export async function preflight(
  config: RunConfig,
  specs: Specs,
  redactor: Redactor = createRedactor([], createSecretRegistry(config)),
  writes: readonly ConfirmingWrite[] = [],
): Promise<PreflightReport> {
  const connections = watchConnections();
  const transport = openRunTransport(config, { connections: 2 });
  const redact = redactor.text;
  const sent = { GET: 0, POST: 0 };
  const clients = transport.clients({
    onExchange: (exchange: Exchange) => {
      const method = exchange.request.method === 'GET' ? 'GET' : 'POST';
      sent[method] += 1;
      return exchange;
    },
    onRateLimited: () => {
      sent.GET += 1;
    },
  });
  const seen = (exchange: Exchange): string => redact(describe(exchange));
  try {
    const checked = await Promise.all(
      API_LIST.map((api) => {
        const target = targetOf(api, config);
        const client = clients[api.name];
        if (!target || !client) return undefined;
        const name = (field: string): string => settingName(config, api, field);
        const headers = HEADER_SETTINGS.filter((h) => (h.api ?? api.name) === api.name && config.names[h.variable]);
        return checkApi(api, target, {
          client,
          specs,
          baseUrlVariable: config.names[api.settings.baseUrl.variable] ?? api.settings.baseUrl.variable,
          baseUrl: target.baseUrl ?? '',
          seen,
          redact,
          network: config.network,
          connections,
          headers: Object.keys(config.headers[api.name] ?? {}),
          headerSettings: headers.map((h) => config.names[h.variable] ?? `--${h.flag}`),
          name,
          scheme: api.auth.scheme,
          credentialNames: words(credentialSettings(api).map((setting) => name(setting.field))),
        });
      }),
    );
    // Writes go after every API's reads: a setting a read finds wrong stops the run with nothing created.
    const created: CreatedResource[] = [];
    const parts: string[] = [];
    for (const api of checked) {
      if (!api) continue;
      parts.push(await confirmIds(api, writes, config.seed, created));
    }
    const nextStart = transport.gate.nextStart();
    const posts = sent.POST > 0 ? ` and ${sent.POST} POST` : '';
    const counts = `${sent.GET} GET request${sent.GET === 1 ? '' : 's'}${posts}`;
    return {
      line: `preflight: ${parts.join('; ')} (${counts})`,
      requests: sent.GET + sent.POST,
      ...(created.length > 0 ? { created } : {}),
      ...(nextStart > 0 ? { nextStart } : {}),
    };
  } finally {
    connections.stop();
    await transport.destroy();
  }
}

/** A setting of an API's target by its field (`serviceId`), as the user named it, else its variable. */
function settingName(config: RunConfig, api: ApiDescriptor, field: string): string {
  const settings = [...credentialSettings(api), ...api.settings.ids, ...otherTenantSettings(api)];
  const variable = settings.find((setting) => setting.field === field)?.variable ?? field;
  return config.names[variable] ?? variable;
}

/** What an API's reads proved, before its confirming writes: the parts of its line, and the ids it proved. */
interface ApiChecked {
  readonly api: ApiDescriptor;
  readonly target: TargetFields;
  readonly checker: Checker;
  /** The line's part when a read's answer was left to the run: nothing more is checked then. */
  readonly unchecked?: string;
  readonly proven: readonly string[];
  /** The fields of the ids its reads proved. */
  readonly ids: ReadonlySet<string>;
  /** What follows the proven parts in the line: the listed id found, the other tenant. */
  readonly tail: string;
  /** The notes of the reads left out, each with the ids it would have checked. */
  readonly leftOut: readonly { readonly line: string; readonly ids: readonly string[] }[];
}

/**
 * Sends, for each id of an API that no read proved and whose `unknownWhen` names a confirming write's operation, that
 * write alone: a 2xx proves the id (what it created is listed), a 404 is TARGET_UNKNOWN_ID naming the setting, anything
 * else is left to the run. Returns the API's part of the preflight's line.
 */
async function confirmIds(
  checked: ApiChecked,
  writes: readonly ConfirmingWrite[],
  seed: number,
  created: CreatedResource[],
): Promise<string> {
  const { api, target, checker } = checked;
  if (checked.unchecked) return checked.unchecked;
  const proven = [...checked.proven];
  const confirmed = new Set(checked.ids);
  const notes: string[] = [];
  const byWrites: string[] = [];
  for (const { field, unknownWhen } of api.settings.ids as readonly IdSetting[]) {
    const write = unknownWhen && writes.find((one) => one.operationId === unknownWhen.operationId);
    if (!unknownWhen || !write || !target[field] || confirmed.has(field)) continue;
    const operation = operationById(checker.specs, write.operationId);
    const exchange = await checker.client.send({
      operation,
      probe: { intent: 'observe', label: write.label },
      params: pathParameters(api, target),
      json: write.json(seed, operation.openFields),
    });
    const status = exchange.response?.status;
    if (status === 404)
      throw new HarnessError('TARGET_UNKNOWN_ID', unknownWhen.notFound(wordsOf(api, target, checker, exchange)));
    const record = writeRecord(exchange);
    if (record) {
      created.push(record);
      confirmed.add(field);
      proven.push(unknownWhen.proves);
      byWrites.push(`${checker.name(field)} by a ${operation.operationId}, which created ${record.id}`);
    } else {
      notes.push(`, ${checker.name(field)} unchecked: ${checker.seen(exchange)}, left to the run`);
      confirmed.add(field);
    }
  }
  const leftOut = checked.leftOut.filter(
    (note) => !note.ids.some((field) => confirmed.has(field) && !checked.ids.has(field)),
  );
  const written = byWrites.length > 0 ? ` (${byWrites.join('; ')})` : '';
  const after = `${checked.tail}${notes.join('')}${leftOut.map((note) => `; ${note.line}`).join('')}`;
  return `${api.name} ${proven.join(', ')} ok${written}${after}`;
}

/**
 * Sends an API's preflight reads in order, and returns what they proved, or where they stopped proving (an answer left
 * to the run); throws a HarnessError on a configuration mistake.
 */
async function checkApi(api: ApiDescriptor, target: TargetFields, checker: Checker): Promise<ApiChecked> {
  const proven: string[] = [];
  const ids = new Set<string>();
  const leftOut: { line: string; ids: readonly string[] }[] = [];
  let found = '';
  const params = pathParameters(api, target);
  // Every read is sent at once (GETs, which change nothing), and their answers are read in order, as if sent so: the
  // first that proves a mistake names it; the ones after it only cost a request each.
  const reads = api.preflight.map((read) => {
    if (read.ids.some((field) => !target[field])) return { read };
    const query = read.query?.(new Date()) ?? {};
    const sent = send(checker, read.operationId, params, query);
    // Not read when an earlier read throws: its failure must not end the thread as an unhandled rejection.
    sent.catch(() => undefined);
    return { read, query, sent };
  });
  const base = { api, target, checker, proven, ids, tail: '', leftOut };
  for (const { read, query, sent } of reads) {
    if (!sent) {
      if (read.leftOut) leftOut.push({ line: read.leftOut.line, ids: read.ids });
      continue;
    }
    const exchange = await sent;
    const result = outcome(checker, exchange);
    const words = wordsOf(api, target, checker, exchange);
    if (result === 'refused') throw refusal(checker, exchange, read.refused(words));
    if (result === 'not-found') {
      const notFound = read.notFound;
      if (notFound.notTheApi === undefined) throw new HarnessError('TARGET_UNKNOWN_ID', notFound.unknownIds(words));
      if (!notFound.unknownIds) throw new HarnessError('NOT_THE_API', notFound.notTheApi(words));
      const anonymous = await send(checker, read.operationId, params, query, null);
      if (anonymous.response?.status === 404) throw new HarnessError('NOT_THE_API', notFound.notTheApi(words));
      const status = anonymous.response ? String(anonymous.response.status) : 'no answer';
      throw new HarnessError('TARGET_UNKNOWN_ID', notFound.unknownIds({ ...words, anonymous: status }));
    }
    if (result !== 'ok') {
      assertUuids(api, checker, exchange, read.ids, target);
      const provenSoFar = proven.length > 0 ? `${proven.join(', ')} ok, ${read.proves} ` : '';
      const unchecked = `${api.name} ${provenSoFar}unchecked: ${result}`;
      return { ...base, unchecked };
    }
    proven.push(read.proves);
    for (const field of read.ids) ids.add(field);
    if (read.finds) found = findListed(api, read.finds, target, exchange, words);
  }
  const other = await checkOtherTenant(api, target, checker);
  return { ...base, tail: `${found}${other}` };
}

/**
 * Checks another tenant's settings as the run's own are checked: the API's first preflight read whose ids the other
 * tenant names, sent with its credentials on its own ids; `, <what it proved>`, or nothing when they are not set.
 * Throws CREDENTIALS_REFUSED or TARGET_UNKNOWN_ID naming the variables when the target refuses them there.
 */
async function checkOtherTenant(api: ApiDescriptor, target: TargetFields, checker: Checker): Promise<string> {
  const other = api.settings.other;
  const credentials = otherCredentialsIn(api, target);
  const read = otherTenantRead(api);
  if (!other || !credentials || !read) return '';
  const settings = otherTenantSettings(api);
  const params = {
    ...pathParameters(api, target),
    ...Object.fromEntries(other.ids.map((id) => [id.for, target[id.field] ?? ''])),
  };
  const authorization = authorizationHeader(api.auth.scheme, credentials);
  const exchange = await send(checker, read.operationId, params, read.query?.(new Date()) ?? {}, authorization);
  const result = outcome(checker, exchange);
  const variables = settings.map((setting) => setting.variable);
  if (result === 'not-found') {
    // Ids not found for them, and alike for no credentials at all: the target does not tell credentials apart (it acts
    // as the run's own key whatever is sent), its fault for the run to judge (auth.required, access.other-tenant).
    const anonymous = await send(checker, read.operationId, params, read.query?.(new Date()) ?? {}, null);
    if (anonymous.response !== undefined && anonymous.response.status === exchange.response?.status)
      return (
        `, other tenant unchecked: ${variables.map((v, at) => checker.name(settings[at]?.field ?? v)).join(', ')} ` +
        'answered as no credentials are ' +
        `(HTTP ${anonymous.response.status}), left to the run`
      );
  }
  const idNames = other.ids.map((id) => checker.name(id.field));
  const keyNames = settings
    .filter((setting) => !other.ids.some((id) => id.field === setting.field))
    .map((setting) => checker.name(setting.field));
  const allNames = words([...keyNames, ...idNames]);
  if (result === 'refused')
    throw refusal(
      checker,
      exchange,
      `The ${api.name} API refused ${words(keyNames)}${idNames.length > 0 ? ` on ${words(idNames)}` : ''} ` +
        `(${checker.seen(exchange)}): check that ${keyNames.length === 1 ? 'it is' : 'they are'} the ` +
        `${other.credentials.about}${idNames.length > 0 ? `, of the one ${words(idNames)} names` : ''}, or unset ` +
        `${allNames} to leave access.other-tenant not judged.`,
    );
  if (result === 'not-found')
    throw new HarnessError(
      'TARGET_UNKNOWN_ID',
      `${words(idNames.length > 0 ? idNames : keyNames)} ${idNames.length > 1 ? 'are' : 'is'} not known to the ` +
        `${api.name} API (${checker.seen(exchange)}): check ${allNames}.`,
    );
  return result === 'ok' ? `, other tenant ${read.proves} ok` : `, other tenant unchecked: ${result}`;
}

/**
 * Looks for a listed id, when it is set, among the items of a list's payload: `, <what was found>`, or why it was not
 * checked; throws when the list lacks it or the run may not use it.
 */
function findListed(
  api: ApiDescriptor,
  finds: ListedId,
  target: TargetFields,
  list: Exchange,
  words: PreflightWords,
): string {
  const wanted = target[finds.field];
  if (!wanted) return '';
  const variable = idVariable(api, finds.field);
  const field = api.envelope.payload;
  const items = (list.response?.json as Record<string, unknown> | undefined)?.[field];
  if (!Array.isArray(items)) return `, ${variable} unchecked (the list is not { ${field}: [...] }: left to the run)`;
  const item = items.find(
    (a): a is Record<string, unknown> =>
      typeof a === 'object' && a !== null && String((a as { id?: unknown }).id).toLowerCase() === wanted.toLowerCase(),
  );
  if (!item) throw new HarnessError('TARGET_UNKNOWN_ID', finds.notListed({ ...words, listed: items.length }));
  const reason = finds.unusable?.reason(item);
  if (finds.unusable && reason) {
    throw new HarnessError(finds.unusable.code, finds.unusable.message(words, reason));
  }
  return `, ${finds.found(words)}`;
}

/** Names as a sentence lists them: `A`, `A and B`, `A, B and C`. */
function words(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The error of a 401 or 403 to a read sent with settings the user gave: NOT_THE_API when the answer names another
 * scheme than the API's (`WWW-Authenticate: Basic` from a URL that should be the Bearer API: the other API's URL);
 * CREDENTIALS_REFUSED that says a gateway may have written it when it is a page in plain text or HTML (an API may
 * answer errors so too); else CREDENTIALS_REFUSED with `message`, and for a run that adds headers, that a gateway may
 * be the one refusing.
 */
function refusal(checker: Checker, exchange: Exchange, message: string): HarnessError {
  const response = exchange.response;
  const challenge = response?.headers['www-authenticate'] ?? '';
  const scheme = /^\s*([A-Za-z-]+)/.exec(challenge)?.[1]?.toLowerCase();
  const where = `${checker.baseUrlVariable} (${checker.baseUrl})`;
  if (scheme && scheme !== checker.scheme && ['basic', 'bearer'].includes(scheme))
    return new HarnessError(
      'NOT_THE_API',
      `${where} asks for ${scheme === 'basic' ? 'HTTP Basic' : 'a Bearer token'} (${checker.seen(exchange)}, ` +
        `WWW-Authenticate: ${checker.redact(challenge)}), but the ${exchange.api} API takes ` +
        `${checker.scheme === 'basic' ? 'HTTP Basic' : 'a Bearer token'}: ${checker.baseUrlVariable} is likely the ` +
        `other API's URL, so set it to the ${exchange.api} API's.`,
    );
  const type = (response?.headers['content-type'] ?? '').split(';')[0]?.trim() || 'no content type';
  if (response && response.text.trim() !== '' && response.json === undefined && !/json/i.test(type))
    return new HarnessError(
      'CREDENTIALS_REFUSED',
      `${where} refused the request with a page in ${type}, not in the JSON of the ${exchange.api} API ` +
        `(${checker.seen(exchange)}): when a gateway or proxy in front of the API wrote it, give it what it wants ` +
        `(${checker.headerSettings.length > 0 ? `the run sends ${words(checker.headers)} with ` : 'a header with '}` +
        `${words(checker.headerSettings.length > 0 ? checker.headerSettings : [`--${exchange.api}-header`])}) and ` +
        `check that ${checker.baseUrlVariable} is the API's URL, else check ${checker.credentialNames}.`,
    );
  return new HarnessError('CREDENTIALS_REFUSED', message + gatewayNote(checker));
}

/**
 * For a refusal of a run that adds headers: that a gateway in front of the API, not the API, may have refused, and
 * which headers to check, under the settings the user gave them with; nothing for a run that adds none.
 */
function gatewayNote({ headers, headerSettings }: Checker): string {
  if (headers.length === 0) return '';
  return (
    ` The run sends ${words(headers)} too (${words(headerSettings)}): when a gateway in front of the API gave this ` +
    `answer, check ${headers.length === 1 ? 'that header' : 'those headers'} (the value the gateway wants, and for ` +
    'which host).'
  );
}

/** The words of an API's preflight messages, for one answer. */
function wordsOf(api: ApiDescriptor, target: TargetFields, checker: Checker, exchange: Exchange): PreflightWords {
  return {
    target,
    seen: checker.seen(exchange),
    ...(exchange.response ? { status: exchange.response.status } : {}),
    url: exchange.request.url,
    baseUrlVariable: checker.baseUrlVariable,
    baseUrl: checker.baseUrl,
    credentials: checker.credentialNames,
    name: checker.name,
    pathPrefix: api.settings.pathPrefix,
  };
}

/** The target's ids that fill path parameters, by field. */
function pathParameters(api: ApiDescriptor, target: TargetFields): Record<string, string> {
  return Object.fromEntries(
    api.settings.ids.flatMap(({ field, pathParameter }) => {
      const value = target[field];
      return pathParameter && value ? [[field, value]] : [];
    }),
  );
}

function send(
  checker: Checker,
  operationId: string,
  params: Record<string, string>,
  query: Record<string, string> = {},
  authorization?: string | null,
): Promise<Exchange> {
  const operation = operationById(checker.specs, operationId);
  return checker.client.send({
    operation,
    probe: PROBE,
    params,
    query,
    ...(authorization === undefined ? {} : { authorization }),
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
    const { baseUrlVariable, baseUrl, network, connections } = checker;
    const settingsError = networkFailure({ failure, baseUrlVariable, baseUrl, network, connections });
    if (settingsError) throw settingsError;
    const code = failure.message.split(':')[0] ?? failure.code;
    if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/.test(code) && checker.baseUrl.startsWith('https:')) {
      const host = new URL(checker.baseUrl).host;
      throw new HarnessError(
        'TARGET_UNREACHABLE',
        `${checker.baseUrlVariable} (${checker.baseUrl}) is an https URL, but the server at ${host} answers in ` +
          `plain HTTP, not TLS (${code}): give ${checker.baseUrl.replace(/^https:/, 'http:')} if the API is served ` +
          'without TLS there, or the port on which it serves https.',
      );
    }
    if (UNREACHABLE.some((prefix) => code.startsWith(prefix))) {
      throw new HarnessError(
        'TARGET_UNREACHABLE',
        `Cannot reach ${checker.baseUrlVariable} (${checker.baseUrl}): ${code}; check the URL and that the ` +
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
  const moved = movedBaseUrl(checker, exchange);
  if (moved) throw moved;
  const refused = clientCertAnswer(checker, response);
  if (refused) throw refused;
  return `${operationLabel(exchange)} answered ${response.status}, left to the run`;
}

/**
 * NOT_THE_API for a redirect (3xx with a `Location`) to the same path and query under another base URL (https for
 * http, another host or prefix): the run sends every request to its documented path under the base URL and follows no
 * redirect, so the base URL is not where the API answers; the message gives the one it redirects to. Any other
 * redirect is the run's to judge.
 */
function movedBaseUrl(checker: Checker, exchange: Exchange): HarnessError | undefined {
  const location = exchange.response?.headers.location;
  const status = exchange.response?.status ?? 0;
  if (status < 300 || status >= 400 || !location) return undefined;
  const sent = new URL(exchange.request.url);
  const base = new URL(checker.baseUrl);
  const tail = `${sent.pathname.slice(base.pathname.replace(/\/$/, '').length)}${sent.search}`;
  let to: URL;
  try {
    to = new URL(location, sent);
  } catch {
    return undefined;
  }
  const where = `${to.origin}${to.pathname}${to.search}`;
  if (!where.endsWith(tail) || where === sent.href) return undefined;
  const moved = where.slice(0, where.length - tail.length);
  return new HarnessError(
    'NOT_THE_API',
    `${checker.baseUrlVariable} (${checker.baseUrl}) answers, but moves the ${exchange.api} API elsewhere: ` +
      `${checker.seen(exchange)}, a redirect to ${checker.redact(where)}. The run sends each request to its ` +
      `documented path under the base URL and follows no redirect: set ${checker.baseUrlVariable} to ` +
      `${checker.redact(moved)}.`,
  );
}

/**
 * A 4xx other than 401, 403 and 404 to a valid read is the run's to judge, unless an id it checks, of a kind the API
 * gives as uuids, was not a uuid.
 */
function assertUuids(
  api: ApiDescriptor,
  checker: Checker,
  exchange: Exchange,
  fields: readonly string[],
  target: TargetFields,
): void {
  const status = exchange.response?.status ?? 0;
  if (status < 400 || status >= 500 || status === 429) return;
  const bad = api.settings.ids
    .filter(({ field, format }) => format === 'uuid' && fields.includes(field) && !isUuid(target[field] ?? ''))
    .map(({ field }) => [checker.name(field), target[field] ?? ''] as const);
  if (bad.length === 0) return;
  const values = bad.map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(' and ');
  const verb = bad.length === 1 ? 'is not a uuid' : 'are not uuids';
  const settings = bad.map(([name]) => name).join(' and ');
  throw new HarnessError(
    'TARGET_UNKNOWN_ID',
    `${values} ${verb} (the ${api.name} API's ids are uuids, and ${checker.seen(exchange)}): check ${settings}.`,
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
