import type { HookContext, Hooks, OperationId, Outgoing } from './hooks.ts';
import type { RuleId } from './rule-id.ts';
import { jsonOutgoing } from './http.ts';
import { copyJson, isObject, type Json, type JsonObject } from './json.ts';
import { isAnyUuid } from './scope.ts';
import { selectNamed } from './named.ts';
import { problem } from './problem.ts';
import type { Store } from './store.ts';
import { strictBodies } from './strict-bodies.ts';
import { echoOnly } from './echo-only.ts';
import { strictBounds } from './strict-bounds.ts';
import { firstBoundRefused } from './first-bound-refused.ts';
import { usageFromDaysBack } from './usage-from-days-back.ts';
import { STACK_MODES } from './stack-modes.ts';
import { sourceOwnValues } from './source-own-values.ts';
import { sameTableKey, withTableMappings } from './table-mappings.ts';
import { lastWritePerKey, pipeWritesLocked } from './writes-at-once.ts';

/** A named unusual but correct behaviour the target can be started with, and its hooks. */
export interface Mode {
  readonly name: string;
  readonly description: string;
  /** Creates the mode's hooks, with any state they keep, for one start of the target whose state is `store`. */
  readonly install: (store: Pick<Store, 'alerts' | 'pipes'>) => Hooks;
  /**
   * Verdicts a correct harness cannot judge on this correct target, and says so (skipped, not judged) where the clean
   * target passes them: the only probes that give their evidence are ones this target may refuse.
   */
  readonly notJudged?: readonly { readonly rule: RuleId; readonly on: OperationId; readonly why: string }[];
  /**
   * Probe groups a correct harness does not run on this correct target, each with words its reason must hold: the
   * values they would send are ones this target gives no client (the rules they feed may still be judged by others).
   */
  readonly notRun?: readonly { readonly group: string; readonly why: string }[];
}

const ID_KEYS: readonly string[] = Object.freeze(['id', 'serviceId', 'dataWarehouseId', 'entityId', 'requestId']);

const OPTIONAL_SERVICE_FIELDS = Object.freeze([
  'byocId',
  'iamRole',
  'encryptionKey',
  'encryptionAssumedRoleIdentifier',
  'hasTransparentDataEncryption',
  'transparentDataEncryptionKeyId',
  'encryptionRoleId',
]);

/** The mode table; every mode stays within what RULES.md allows. */
export const MODES: readonly Mode[] = Object.freeze(
  [
    mode('extra-fields', 'every JSON object in every response carries two undocumented fields', {
      response: (_ctx, o) => (typeof o.body === 'object' && o.body !== null ? { ...o, body: withExtras(o.body) } : o),
    }),
    mode('uppercase-uuids', 'uuid ids and requestIds in responses are upper-case', {
      response: (_ctx, o) => (typeof o.body === 'object' && o.body !== null ? { ...o, body: upperIds(o.body) } : o),
    }),
    mode('status-422', 'request validation failures answer 422 with an application/problem+json body', {
      response: (_ctx, o) =>
        o.status === 400
          ? jsonOutgoing(
              422,
              {
                type: 'about:blank',
                title: 'Unprocessable request',
                errors: (o.problems ?? []).map((p) => ({ field: p.path, detail: p.message })),
              },
              { headers: { 'content-type': 'application/problem+json' }, problems: o.problems, message: o.message },
            )
          : o,
    }),
    mode('plain-text-errors', 'alerts API errors are plain text', {
      response: (ctx, o) =>
        ctx.api === 'alerts' && o.status >= 400
          ? { ...o, headers: { ...o.headers, 'content-type': 'text/plain; charset=utf-8' }, body: o.message ?? 'error' }
          : o,
    }),
    mode('costs-object', 'usage `costs` is a single object (not a list) when the period covers one day', {
      result: (ctx, r) =>
        ctx.operation === 'getUsageCost' && Array.isArray(r.costs) && r.costs.length === 1
          ? { ...r, costs: r.costs[0] }
          : r,
    }),
    mode(
      'usage-fine-credits',
      "usage entries' totalCredits carry four decimals, and grandTotalCredits is the sum of them rounded each to cents",
      {
        result: (ctx, r) =>
          ctx.operation === 'getUsageCost' && Array.isArray(r.costs)
            ? {
                ...r,
                costs: r.costs.map((entry) =>
                  isObject(entry) && typeof entry.totalCredits === 'number'
                    ? { ...entry, totalCredits: Math.round(entry.totalCredits * 10000 + 49) / 10000 }
                    : entry,
                ),
              }
            : r,
      },
    ),
    mode(
      'conditional-absent',
      'conditional fields are absent: key expireAt without expiry, usedAt, optional service fields',
      {
        result: (ctx, r) => {
          if (ctx.operation === 'createKey' && isObject(r.key)) {
            const { usedAt: _usedAt, expireAt, ...key } = r.key;
            return { ...r, key: expireAt === null ? key : { ...key, expireAt } };
          }
          if (ctx.operation === 'changeServiceState') {
            return Object.fromEntries(Object.entries(r).filter(([key]) => !OPTIONAL_SERVICE_FIELDS.includes(key)));
          }
          return r;
        },
      },
    ),
    mode('rate-limit-retry-after', 'the 3rd and 20th requests get 429 with Retry-After: 1', {
      gate: (ctx) => (ctx.sequence === 3 || ctx.sequence === 20 ? tooMany(ctx, { 'retry-after': '1' }) : undefined),
    }),
    mode('rate-limit-reset', 'the 5th and 30th requests get 429 with X-RateLimit-Reset one second ahead', {
      gate: (ctx) =>
        ctx.sequence === 5 || ctx.sequence === 30
          ? tooMany(ctx, { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) })
          : undefined,
    }),
    mode('rate-limit-bare', 'the 7th and 40th requests get 429 with neither Retry-After nor X-RateLimit-Reset', {
      gate: (ctx) => (ctx.sequence === 7 || ctx.sequence === 40 ? tooMany(ctx, {}) : undefined),
    }),
    mode('slow', 'every response is delayed by 200 ms', {
      response: (_ctx, o) => ({ ...o, delayMs: o.delayMs + 200 }),
    }),
    mode(
      'lists-any-order',
      "lists come back in another order than sent or stored: the alert list, and a pipe's columns, field " +
        'mappings and table mappings, reversed',
      {
        result: (ctx, r) => {
          if (ctx.operation === 'listAlerts' && Array.isArray(r.data)) return { ...r, data: [...r.data].reverse() };
          return ctx.operation === 'createPipe' || ctx.operation === 'updatePipe' ? reversedLists(r) : r;
        },
      },
    ),
    {
      name: 'pipe-writes-locked',
      description:
        'a pipe PATCH reads the pipe, waits for storage and writes it back whole, under a lock per pipe: PATCHes of ' +
        'one pipe sent at once are applied one after another',
      install: pipeWritesLocked,
    },
    {
      name: 'last-write-per-key',
      description:
        'a pipe PATCH waits for storage, a time of its own, then applies its changes at once to the pipe as stored ' +
        'then: of PATCHes sent at once, each settings key keeps the value of the last one written',
      install: lastWritePerKey,
    },
    {
      name: 'table-mapping-copies',
      description:
        'adding a table mapping that a relational pipe already has keeps both copies, which a removal removes together',
      install: tableMappingCopies,
    },
    {
      name: 'duplicate-mapping-refused',
      description:
        'an update that adds a table mapping the pipe already has (and does not remove) is rejected with 409, as ' +
        'a unique key in storage refuses it',
      install: duplicateMappingRefused,
    },
    {
      name: 'echo-only',
      description:
        'pipe and key creates accept partial bodies (no documented field required) and answer with only ' +
        'the fields they were sent, beside the ids, state, times and pipe settings the target assigns',
      install: echoOnly,
    },
    {
      name: 'strict-bodies',
      description:
        'request bodies must be complete: pipe creates and updates and key creates without a documented ' +
        "field (a key's expireAt aside), and alert updates without any of the nine fields or with an " +
        'interval its alerts did not use when it started, are rejected with 400',
      install: strictBodies,
      notJudged: [
        {
          rule: 'pipes.concurrent-updates' as const,
          on: 'updatePipe' as const,
          why: 'PATCHes sent at once each set some settings keys: partial bodies, which this target refuses',
        },
      ],
    },
    {
      name: 'strict-bounds',
      description:
        'every numeric pipe setting and scaling field is bounded, whole numbers only (memory in halves), with ' +
        'bounds drawn around its default each time the target starts; a value outside is rejected with 400',
      install: strictBounds,
    },
    {
      name: 'source-own-values',
      description:
        "a relational source's port and numeric settings and a stream source's timestamp must be the values the " +
        'target drew when it started (its own database and stream), which no answer shows when a request left them ' +
        'out; any other value is rejected with 400',
      install: sourceOwnValues,
      notRun: [
        { group: 'relational pipe: create, update, read settings', why: 'gave no value of source.relational.port' },
        { group: 'stream pipe: create, update, read settings', why: 'gave no value of source.stream.timestamp' },
        { group: 'model-based sequences of pipes', why: 'no stream or relational pipe is created in a sequence' },
      ],
    },
    mode(
      'whole-thresholds',
      'an alert update with a negative or fractional threshold is rejected with 400 (the listed alerts hold whole ' +
        'thresholds of at least 0)',
      {
        review: (ctx, problems) => {
          const threshold = isObject(ctx.input) ? ctx.input.threshold : undefined;
          return ctx.operation === 'updateAlert' &&
            typeof threshold === 'number' &&
            (threshold < 0 || !Number.isInteger(threshold))
            ? [...problems, problem('threshold', 'invalid', 'threshold must be a whole number of at least 0')]
            : problems;
        },
      },
    ),
    {
      name: 'alerts-evaluated',
      description:
        "the target evaluates its alerts on its own: before each alerts request, every alert's state moves (OK to " +
        'ALERT and back) and its updatedAt with it, as an evaluation that stores its outcome does',
      install: (store: Pick<Store, 'alerts' | 'pipes'>): Hooks => ({
        gate: (ctx: HookContext) => {
          if (ctx.api === 'alerts') evaluateAlerts(store);
          return undefined;
        },
      }),
    },
    mode(
      'offset-timestamps',
      'every UTC date-time in a response is written at offset +05:30 with microseconds (the same instant)',
      {
        response: (_ctx, o) =>
          typeof o.body === 'object' && o.body !== null ? { ...o, body: offsetTimes(o.body) } : o,
      },
    ),
    mode(
      'compressed-answers',
      'every answer with a body is compressed though no request asks for it (RFC 9110 lets a server pick any coding ' +
        'then): gzip on the management API, br on the alerts API',
      {
        response: (ctx, o) =>
          o.delivery !== 'send' || o.body === undefined || o.body === ''
            ? o
            : { ...o, headers: { ...o.headers, 'content-encoding': ctx.api === 'alerts' ? 'br' : 'gzip' } },
      },
    ),
    mode('ascii-names', 'a pipe, key or alert name that is not ASCII is rejected with 400', {
      review: (ctx, problems) => {
        const name = isObject(ctx.input) && ctx.operation !== 'listAlerts' ? ctx.input.name : undefined;
        return typeof name === 'string' && [...name].some((char) => (char.codePointAt(0) ?? 0) > 0x7f)
          ? [...problems, problem('name', 'invalid', 'name must be ASCII')]
          : problems;
      },
    }),
    ...STACK_MODES,
    {
      name: 'key-hash-unique',
      description:
        'a key create whose `hashData.keyIdHash` an earlier key of the target was created with is refused with 409 ' +
        '"A key with this keyIdHash already exists", as a unique key in storage refuses it',
      install: keyHashUnique,
    },
    {
      name: 'table-definition-columns',
      description:
        "a pipe update whose `destination.columns` lack a column the pipe's `tableDefinition` names (its " +
        'versionColumnId, columnIds, sortingKey, primaryKey, or a column partitionBy uses) is refused with 400',
      install: tableDefinitionColumns,
    },
    mode(
      'alert-source-kind',
      'an alert update that sends `source: "search"` with `dashboardId` or `tileId` is refused with 400 ' +
        '("dashboardId and tileId apply only to alerts with source tile")',
      {
        review: (ctx, problems) =>
          ctx.operation === 'updateAlert' &&
          isObject(ctx.input) &&
          ctx.input.source === 'search' &&
          (ctx.input.dashboardId !== undefined || ctx.input.tileId !== undefined)
            ? [
                ...problems,
                problem('source', 'invalid', 'dashboardId and tileId apply only to alerts with source tile'),
              ]
            : problems,
      },
    ),
    {
      name: 'first-bound-refused',
      description:
        "every numeric pipe setting and scaling field is bounded (whole 32-bit numbers from 1, a replica's memory " +
        "from 0.5 GB) and a refusal names only the first bound a body breaks, in Ajv's words as Fastify answers them " +
        '("body/scaling/replicaMemoryGb must be >= 0.5")',
      install: firstBoundRefused,
    },
    {
      name: 'usage-from-120-days',
      description:
        "the organization's service has existed for 120 days before the target started: a usage period before " +
        'that lists no cost entries',
      install: () => usageFromDaysBack(120),
    },
  ].map((entry) => Object.freeze(entry)),
);

/** The names of all modes. */
export const MODE_NAMES: readonly string[] = Object.freeze(MODES.map((m) => m.name));

/** Finds modes by name; throws an Error naming an unknown name and listing the valid ones. */
export function selectModes(names: readonly string[]): readonly Mode[] {
  return selectNamed(MODES, names, 'mode');
}

/** Moves every stored alert's state (OK and ALERT in turn) and its updatedAt: an evaluation the target makes itself. */
function evaluateAlerts(store: Pick<Store, 'alerts'>): void {
  const now = new Date().toISOString();
  for (const [id, alert] of store.alerts)
    store.alerts.set(id, { ...alert, state: alert.state === 'ALERT' ? 'OK' : 'ALERT', updatedAt: now });
}

function mode(name: string, description: string, hooks: Hooks): Mode {
  return { name, description, install: () => hooks };
}

function tooMany(ctx: HookContext, headers: Readonly<Record<string, string>>): Outgoing {
  const body: JsonObject =
    ctx.api === 'management' ? { status: 429, error: 'too many requests' } : { message: 'too many requests' };
  return jsonOutgoing(429, body, { headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

function withExtras(value: Json): Json {
  if (Array.isArray(value)) return value.map(withExtras);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) copy[key] = item === undefined ? item : withExtras(item);
  return { ...copy, undocumentedNote: 'not in the documents', undocumentedCount: 7 };
}

/** A UTC date-time as the target writes it by default (`2026-11-26T10:00:00.000Z`). */
const UTC_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?Z$/;

/** Every UTC date-time of a value, written at +05:30 with six fraction digits: the same instant. */
function offsetTimes(value: Json): Json {
  if (typeof value === 'string') {
    if (!UTC_TIME.test(value)) return value;
    const shifted = new Date(Date.parse(value) + 330 * 60_000).toISOString();
    return `${shifted.slice(0, 23)}000+05:30`;
  }
  if (Array.isArray(value)) return value.map(offsetTimes);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) copy[key] = item === undefined ? item : offsetTimes(item);
  return copy;
}

function upperIds(value: Json): Json {
  if (Array.isArray(value)) return value.map(upperIds);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      ID_KEYS.includes(key) && typeof item === 'string' && isAnyUuid(item)
        ? item.toUpperCase()
        : item === undefined
          ? item
          : upperIds(item);
  }
  return copy;
}

/**
 * A pipe answer with its lists reversed: destination columns, field mappings, and a relational source's table mappings.
 */
function reversedLists(pipe: JsonObject): JsonObject {
  const reversed = (value: Json | undefined): Json | undefined => (Array.isArray(value) ? [...value].reverse() : value);
  const copy = copyJson(pipe);
  if (isObject(copy.destination)) copy.destination.columns = reversed(copy.destination.columns) ?? [];
  if (Array.isArray(copy.fieldMappings)) copy.fieldMappings = [...copy.fieldMappings].reverse();
  const relational = isObject(copy.source) ? copy.source.relational : undefined;
  if (isObject(relational) && Array.isArray(relational.tableMappings))
    relational.tableMappings = [...relational.tableMappings].reverse();
  return copy;
}

/**
 * Hooks that keep the copy a relational pipe already has of each table mapping an update adds (and does not remove).
 */
function duplicateMappingRefused(store: Pick<Store, 'pipes'>): Hooks {
  return {
    review: (ctx, problems) => {
      const relational = isObject(ctx.input) && isObject(ctx.input.source) ? ctx.input.source.relational : undefined;
      const pipe = store.pipes.get(ctx.params.pipeId?.toLowerCase() ?? '');
      if (ctx.operation !== 'updatePipe' || !isObject(relational) || !pipe) return problems;
      const added = Array.isArray(relational.tableMappingsToAdd) ? relational.tableMappingsToAdd : [];
      const removed = Array.isArray(relational.tableMappingsToRemove) ? relational.tableMappingsToRemove : [];
      const had = Array.isArray(pipe.source.tableMappings) ? pipe.source.tableMappings : [];
      const duplicate = added.some(
        (a) => had.some((m) => sameTableKey(a, m)) && !removed.some((key) => sameTableKey(key, a)),
      );
      return duplicate
        ? [...problems, problem('source.relational.tableMappingsToAdd', 'duplicate', 'the pipe has this mapping', 409)]
        : problems;
    },
  };
}

function tableMappingCopies(store: Pick<Store, 'pipes'>): Hooks {
  return {
    result: (ctx, r, previous) => {
      const relational = isObject(ctx.input) && isObject(ctx.input.source) ? ctx.input.source.relational : undefined;
      const before =
        isObject(previous?.source) && isObject(previous.source.relational)
          ? previous.source.relational.tableMappings
          : undefined;
      if (
        ctx.operation !== 'updatePipe' ||
        !isObject(relational) ||
        !Array.isArray(relational.tableMappingsToAdd) ||
        !Array.isArray(before)
      )
        return r;
      const added = relational.tableMappingsToAdd;
      const removed = Array.isArray(relational.tableMappingsToRemove) ? relational.tableMappingsToRemove : [];
      const copies = before.filter(
        (m) => added.some((a) => sameTableKey(a, m)) && !removed.some((key) => sameTableKey(key, m)),
      );
      return copies.length === 0 ? r : withTableMappings(store, ctx.params.pipeId, r, (list) => [...copies, ...list]);
    },
  };
}

/** Hooks that refuse a key create with a `keyIdHash` a key was created with before (409). */
function keyHashUnique(): Hooks {
  const seen = new Set<string>();
  const keyIdHash = (input: Json | undefined): string | undefined => {
    const hashData = isObject(input) ? input.hashData : undefined;
    return isObject(hashData) && typeof hashData.keyIdHash === 'string' ? hashData.keyIdHash.toLowerCase() : undefined;
  };
  return {
    review: (ctx, problems) => {
      const hash = ctx.operation === 'createKey' ? keyIdHash(ctx.input) : undefined;
      return hash !== undefined && seen.has(hash)
        ? [...problems, problem('hashData.keyIdHash', 'duplicate', 'A key with this keyIdHash already exists', 409)]
        : problems;
    },
    result: (ctx, r) => {
      const hash = ctx.operation === 'createKey' ? keyIdHash(ctx.input) : undefined;
      if (hash !== undefined) seen.add(hash);
      return r;
    },
  };
}

/** The names a table definition's part uses: a name, or the names of an expression (not the functions it calls). */
function namesIn(value: Json | undefined): string[] {
  const texts = Array.isArray(value) ? value : [value];
  return texts.flatMap((text) => (typeof text === 'string' ? (text.match(/\b[A-Za-z_]\w*\b(?!\s*\()/g) ?? []) : []));
}

/** Hooks that refuse a pipe update whose columns lack one its stored table definition names. */
function tableDefinitionColumns(store: Pick<Store, 'pipes'>): Hooks {
  return {
    review: (ctx, problems) => {
      const destination = isObject(ctx.input) ? ctx.input.destination : undefined;
      const pipe = store.pipes.get(ctx.params.pipeId?.toLowerCase() ?? '');
      if (ctx.operation !== 'updatePipe' || !pipe || !isObject(destination) || !Array.isArray(destination.columns))
        return problems;
      const names = new Set(
        destination.columns.flatMap((c) => (isObject(c) && typeof c.name === 'string' ? [c.name] : [])),
      );
      const definition = isObject(pipe.destination.tableDefinition) ? pipe.destination.tableDefinition : {};
      const engine = isObject(definition.engine) ? definition.engine : {};
      const parts: [string, Json | undefined][] = [
        ['engine.versionColumnId', engine.versionColumnId],
        ['engine.columnIds', engine.columnIds],
        ['sortingKey', definition.sortingKey],
        ['primaryKey', definition.primaryKey],
        ['partitionBy', definition.partitionBy],
      ];
      const missing = parts.flatMap(([part, value]) =>
        namesIn(value)
          .filter((name) => !names.has(name))
          .map((name) => ({ part, name })),
      )[0];
      return missing
        ? [
            ...problems,
            problem(
              'destination.columns',
              'invalid',
              `destination tableDefinition.${missing.part} refers to '${missing.name}', which is not among the ` +
                'destination columns',
            ),
          ]
        : problems;
    },
  };
}
