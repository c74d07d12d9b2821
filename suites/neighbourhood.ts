import fc from 'fast-check';
import { jsonText } from '../core/json-text.ts';
import type { Probe, ProbeClass } from '../core/probe-types.ts';
import { observe } from '../engine/probe.ts';
import type {
  JudgedExchange,
  NeighbourhoodSpec,
  ProbeGroup,
  ProbeRequest,
  SuiteContext,
} from '../engine/suite-types.ts';
import { neighbourhoodOf, REQUEST_PARTS, VALUE_KINDS, type NeighbourhoodPlace } from '../evidence/neighbourhood.ts';

/** Fields of each kind of value one run sends odd values to, per operation: a bounded sample drawn from the seed. */
export const FIELDS_PER_KIND = 2;

/** The rules that judge a request with a method its path does not list: its answer is no documented operation's. */
const UNLISTED_METHOD_RULES = Object.freeze(['errors.client-not-server', 'transport.answers', 'secrets.absent']);

/** Methods that change nothing on any target that keeps HTTP's meaning of them. */
const READ_METHODS: readonly string[] = Object.freeze(['GET', 'HEAD', 'OPTIONS']);

/**
 * The class of a request with a method its path does not list: `read` is GET requests only (RULES.md), and a broken
 * target may do anything with a HEAD or an OPTIONS, so every other method is `write`.
 */
function methodClass(method: string): ProbeClass {
  return method === 'GET' ? 'read' : 'write';
}

/** Path ids that are not uuids. */
const NOT_UUIDS: readonly string[] = Object.freeze([
  'not-a-uuid',
  '0',
  '-1',
  '00000000000000000000000000000000',
  'ct id',
]);
/** A path id of 2,000 characters. */
const LONG_ID = 'ct-long-id-'.padEnd(2_000, '7');
/** Content types that are not JSON. */
const OTHER_TYPES: readonly string[] = Object.freeze([
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
]);
/** Control characters other than U+0000: C0 ones, DEL, a C1 one. */
const CONTROLS: readonly string[] = Object.freeze(['\u0001', '\u0008', '\u000b', '\u001b[0m', '\u007f', '\u0085']);
/** Values that are not addresses, for a host, a URL or an IP range. */
const NOT_ADDRESSES: readonly string[] = Object.freeze([
  'not an address',
  'http://',
  '256.256.256.256',
  '10.0.0.0/33',
  'host name with spaces',
  '::::',
  'http://[::1',
]);
/** Durations in another unit or form than a number and a unit letter such as `5m`. */
const OTHER_DURATIONS: readonly string[] = Object.freeze(['30s', '1w', '5 m', '5M', 'PT5M', '300', '1.5h']);
/** A name no document gives a field or a query parameter. */
const UNKNOWN_NAME = 'conformanceUnknownField';

type Json = Record<string, unknown>;

/** What an operation's neighbourhood probes start from: a request the run's own credentials would have had accepted. */
export interface NeighbourhoodRequest {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Complete bodies, on the run's own resources: an odd value goes into the first that carries its field. */
  readonly bodies?: readonly Json[];
}

/** An operation the neighbourhood's probes go to, and how. */
export interface NeighbourhoodTarget {
  readonly operationId: string;
  readonly after?: readonly string[];
  /** The request to start from, or why there is none (no resource of the run's own to send it to). */
  readonly request: (
    context: SuiteContext,
  ) => NeighbourhoodRequest | { readonly unable: string } | Promise<NeighbourhoodRequest | { readonly unable: string }>;
  /** Its path names a pipe the run created: any method may go there, not only GET, HEAD and OPTIONS. */
  readonly anyMethod?: true;
  /**
   * Why only GET, HEAD and OPTIONS go to it: its path, query and body probes could change what the run cannot put back
   * on a broken target (the service's state).
   */
  readonly readsOnly?: string;
  /** Fields no odd value goes to, each with why (a key's `state`: the run's keys stay disabled). */
  readonly keep?: Readonly<Record<string, string>>;
  /** After its probes: puts back what they changed (the alert under test), given their exchanges. */
  readonly settle?: (context: SuiteContext, exchanges: readonly JudgedExchange[]) => Promise<void>;
}

/** One probe ready to send. */
interface Sendable {
  readonly operationId: string;
  readonly request: ProbeRequest;
}

/** The value at a dotted path through objects, a list standing for its first item. */
function valueAt(value: unknown, steps: readonly string[]): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : valueAt(value[0], steps);
  if (steps.length === 0) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  return valueAt((value as Json)[steps[0]!], steps.slice(1));
}

/** A copy of `value` with what is at a dotted path replaced (a list's first item where the path goes through one). */
function replacedAt(value: unknown, steps: readonly string[], replace: (at: unknown) => unknown): unknown {
  if (steps.length === 0) return replace(value);
  if (Array.isArray(value)) return [replacedAt(value[0], steps, replace), ...value.slice(1)];
  if (typeof value !== 'object' || value === null) return value;
  const [step, ...rest] = steps as [string, ...string[]];
  return { ...(value as Json), [step]: replacedAt((value as Json)[step], rest, replace) };
}

/** How each kind of value changes what a field holds, `variant` choosing among its forms; undefined where it cannot. */
const KIND_VALUES: Readonly<Record<string, (at: unknown, variant: number) => unknown>> = Object.freeze({
  [VALUE_KINDS.nul]: (at) => onString(at, (text) => `${text}\u0000ct`),
  [VALUE_KINDS.control]: (at, variant) => onString(at, (text) => `${text}${CONTROLS[variant % CONTROLS.length]}ct`),
  [VALUE_KINDS.duplicates]: (at) => (Array.isArray(at) && at.length > 0 ? [...at, at[0]] : undefined),
  [VALUE_KINDS.address]: (at, variant) => onString(at, () => NOT_ADDRESSES[variant % NOT_ADDRESSES.length]!),
  [VALUE_KINDS.form]: (at, variant) =>
    onString(at, (text) =>
      /^\d+[a-zA-Z]$/.test(text)
        ? OTHER_DURATIONS[variant % OTHER_DURATIONS.length]!
        : [`${text}:00Z`, text.replace('T', ' '), text.slice(0, 10)][variant % 3]!,
    ),
});

/** `change` applied to a string, or to a list of strings' first item; undefined for anything else. */
function onString(at: unknown, change: (text: string) => string): unknown {
  if (typeof at === 'string') return change(at);
  if (Array.isArray(at) && typeof at[0] === 'string') return [change(at[0]), ...at.slice(1)];
  return undefined;
}

/** The parts of a request (not the kinds of value) of a place list. */
const isKind = (place: NeighbourhoodPlace): boolean => (Object.values(VALUE_KINDS) as string[]).includes(place.part);

/** How many probes a target sends at most: one per part of the request, and a sample of fields per kind of value. */
export function neighbourhoodEstimate(target: NeighbourhoodTarget, spec: NeighbourhoodSpec | undefined): number {
  if (!spec) return Object.keys(REQUEST_PARTS).length + FIELDS_PER_KIND * Object.keys(VALUE_KINDS).length;
  const places = neighbourhoodOf(spec, []);
  if (target.readsOnly) return 1;
  return places.reduce((n, place) => n + (isKind(place) ? Math.min(FIELDS_PER_KIND, place.where.length) : 1), 0);
}

/**
 * The neighbourhood's probes of one target from its request, each an observe probe (any answer but a 5xx; an accepted
 * one judged by every rule): `now`, sent at once, and `last`, a method its path does not list that may change it (a
 * DELETE of a pipe the run created), sent after them. Says in the coverage what was not sent, and why.
 */
export function neighbourhoodProbes(
  context: SuiteContext,
  target: NeighbourhoodTarget,
  request: NeighbourhoodRequest,
): { readonly now: readonly Sendable[]; readonly last: readonly Sendable[] } {
  const { operationId } = target;
  const places = neighbourhoodOf(context.operation(operationId), context.listedMethods(operationId));
  const bodies = request.bodies ?? [];
  const keep = target.keep ?? {};
  for (const [field, reason] of Object.entries(keep))
    for (const place of places) context.notSent(operationId, `${place.part}#${field}`, reason);
  const carried = (field: string): boolean =>
    !(field in keep) && bodies.some((body) => valueAt(body, field.split('.')) !== undefined);
  const allowed = (method: string): boolean => context.config.allow.includes(methodClass(method));
  const sendable = (method: string): boolean => (target.anyMethod || READ_METHODS.includes(method)) && allowed(method);
  for (const place of places.filter((one) => one.part === REQUEST_PARTS.method))
    for (const method of place.where.filter((one) => !sendable(one)))
      context.notSent(
        operationId,
        `${place.part}#${method}`,
        target.anyMethod || READ_METHODS.includes(method) ? NOT_ALLOWED : OTHER_METHODS,
      );
  const pools = new Map(
    places.map((place) => [
      place.part,
      place.part === REQUEST_PARTS.method
        ? place.where.filter(sendable)
        : place.part === REQUEST_PARTS.unknownNested || isKind(place)
          ? place.where.filter(carried)
          : place.where,
    ]),
  );
  const one = (pool: readonly string[]): fc.Arbitrary<string | undefined> =>
    pool.length === 0 ? fc.constant(undefined) : fc.constantFrom(...pool);
  const draw = fc.record({
    where: fc.record(
      Object.fromEntries(places.filter((p) => !isKind(p)).map((p) => [p.part, one(pools.get(p.part)!)])),
    ),
    fields: fc.record(
      Object.fromEntries(
        places.filter(isKind).map((p) => {
          const pool = pools.get(p.part)!;
          const size = Math.min(FIELDS_PER_KIND, pool.length);
          return [p.part, fc.shuffledSubarray([...pool], { minLength: size, maxLength: size })];
        }),
      ),
    ),
    variant: fc.nat({ max: 1_000 }),
  });
  const [drawn] = context.examples(`neighbourhood of ${operationId}`, draw, 1);
  if (!drawn) return { now: [], last: [] };
  const { where, fields, variant } = drawn.value as {
    where: Record<string, string | undefined>;
    fields: Record<string, string[]>;
    variant: number;
  };
  const example = { example: drawn.example };
  const probe = (part: string, at: string | undefined, label: string, more: Partial<Probe> = {}): Probe =>
    observe(`${part}${at ? ` (${at})` : ''}: ${label}`, {
      ...example,
      neighbourhood: { part, ...(at === undefined ? {} : { where: at }) },
      ...more,
    });
  const [body] = bodies;
  const base: Pick<ProbeRequest, 'params' | 'query' | 'json'> = {
    ...(request.params ? { params: request.params } : {}),
    ...(request.query ? { query: request.query } : {}),
    ...(body ? { json: body } : {}),
  };
  const now: Sendable[] = [];
  const last: Sendable[] = [];
  const send = (part: string, at: string | undefined, label: string, req: Omit<ProbeRequest, 'probe'>): void => {
    now.push({ operationId, request: { ...req, probe: probe(part, at, label) } });
  };
  for (const place of places) {
    const { part } = place;
    if (target.readsOnly && part !== REQUEST_PARTS.method) {
      context.notSent(operationId, part, target.readsOnly);
      continue;
    }
    const at = isKind(place) ? undefined : where[part];
    if (!isKind(place) && at === undefined && place.where.length > 0) {
      context.notSent(operationId, part, notSentReason(part, target));
      continue;
    }
    switch (part) {
      case REQUEST_PARTS.notUuid:
        send(part, at, 'the path id is not a uuid', {
          ...base,
          params: { ...base.params, [at!]: NOT_UUIDS[variant % NOT_UUIDS.length]! },
        });
        break;
      case REQUEST_PARTS.longId:
        send(part, at, 'a path id of 2,000 characters', { ...base, params: { ...base.params, [at!]: LONG_ID } });
        break;
      case REQUEST_PARTS.repeated:
        send(part, at, 'the query parameter sent twice', {
          ...base,
          morePairs: [[at!, request.query?.[at!] ?? '']],
        });
        break;
      case REQUEST_PARTS.empty:
        send(part, at, 'the query parameter empty', { ...base, query: { ...request.query, [at!]: '' } });
        break;
      case REQUEST_PARTS.unknownQuery:
        send(part, at, 'a query parameter no document names', { ...base, morePairs: [[UNKNOWN_NAME, 'ct']] });
        break;
      case REQUEST_PARTS.unknownField:
        if (!body) context.notSent(operationId, part, NO_BODY);
        else
          send(part, at, 'a top-level field no document names', { ...base, json: { ...body, [UNKNOWN_NAME]: 'ct' } });
        break;
      case REQUEST_PARTS.unknownNested: {
        const carrier = bodies.find((one) => valueAt(one, at!.split('.')) !== undefined)!;
        const json = replacedAt(carrier, at!.split('.'), (object) =>
          typeof object === 'object' && object !== null && !Array.isArray(object)
            ? { ...(object as Json), [UNKNOWN_NAME]: 'ct' }
            : object,
        );
        send(part, at, 'a nested field no document names', { ...base, json });
        break;
      }
      case REQUEST_PARTS.noContentType:
        if (!body) context.notSent(operationId, part, NO_BODY);
        else
          send(part, at, 'a JSON body with no Content-Type', {
            ...base,
            json: undefined,
            body: jsonText(body),
            contentType: null,
          });
        break;
      case REQUEST_PARTS.otherContentType: {
        const type = OTHER_TYPES[variant % OTHER_TYPES.length]!;
        if (!body) context.notSent(operationId, part, NO_BODY);
        else
          send(part, type, `a JSON body sent as ${type}`, {
            ...base,
            json: undefined,
            body: jsonText(body),
            contentType: type,
          });
        break;
      }
      case REQUEST_PARTS.method: {
        const method = at!;
        const withBody = ['PUT', 'POST', 'PATCH'].includes(method) && body !== undefined;
        // One that may change the resource (a DELETE of the run's pipe) goes after the others; one that reads, at once.
        (READ_METHODS.includes(method) ? now : last).push({
          operationId,
          request: {
            ...base,
            ...(withBody ? {} : { json: undefined }),
            method,
            probe: probe(part, method, `the path with ${method}`, { judgedBy: UNLISTED_METHOD_RULES }),
          },
        });
        break;
      }
      default:
        sendKind(place, fields[part] ?? [], variant);
    }
  }
  function sendKind(place: NeighbourhoodPlace, chosen: readonly string[], turn: number): void {
    if (chosen.length === 0) {
      context.notSent(operationId, place.part, NO_FIELD);
      return;
    }
    for (const [index, field] of chosen.entries()) {
      const steps = field.split('.');
      const carrier = bodies.find((one) => valueAt(one, steps) !== undefined)!;
      let changed = false;
      const json = replacedAt(carrier, steps, (value) => {
        const odd = KIND_VALUES[place.part]!(value, turn + index);
        if (odd === undefined) return value;
        changed = true;
        return odd;
      });
      if (!changed) {
        context.notSent(operationId, `${place.part}#${field}`, NO_FIELD);
        continue;
      }
      send(place.part, field, 'an odd value', { ...base, json });
    }
  }
  return { now, last };
}

const OTHER_METHODS =
  'a method other than GET, HEAD and OPTIONS goes only to a path of a pipe the run created, where a broken target ' +
  "can change only the run's own";
const NOT_ALLOWED =
  'a method other than GET is of class write (read is GET requests only, and a broken target may do anything with a ' +
  'HEAD or an OPTIONS), which --allow leaves out';
const NO_BODY = 'no request the run sends to it carries a body';
const NO_FIELD = 'no request the run sends to it carries such a field with a value to change';

/** Why a part of the request that the operation has was not drawn. */
function notSentReason(part: string, target: Pick<NeighbourhoodTarget, 'anyMethod'>): string {
  if (part !== REQUEST_PARTS.method) return "no place of the run's request to put it";
  return target.anyMethod
    ? 'every method its path does not list is of class write, which --allow leaves out'
    : 'no method its path does not list may go there: GET, HEAD and OPTIONS are listed or left out by --allow, and ' +
        'other methods go only to a pipe the run created';
}

/** Sends a target's probes: those of `now` at once, then those of `last`; returns every exchange. */
export async function sendNeighbourhood(
  context: SuiteContext,
  probes: { readonly now: readonly Sendable[]; readonly last: readonly Sendable[] },
): Promise<JudgedExchange[]> {
  const sendAll = (list: readonly Sendable[]): Promise<JudgedExchange[]> =>
    Promise.all(list.map(({ operationId, request }) => context.send(operationId, request)));
  return [...(await sendAll(probes.now)), ...(await sendAll(probes.last))];
}

/** One probe group per target: the neighbourhood of its operation, from its request. */
export function neighbourhoodGroups(targets: readonly NeighbourhoodTarget[]): ProbeGroup[] {
  return targets.map((target) => ({
    name: `neighbourhood: ${target.operationId}`,
    operations: [target.operationId],
    feeds: [],
    neighbourhood: true,
    ...(target.after ? { after: target.after } : {}),
    estimate: (_runs, operationOf) => neighbourhoodEstimate(target, operationOf?.(target.operationId)),
    async run(context) {
      const request = await target.request(context);
      if ('unable' in request) return context.unable(request.unable);
      const exchanges = await sendNeighbourhood(context, neighbourhoodProbes(context, target, request));
      await target.settle?.(context, exchanges);
    },
  }));
}
