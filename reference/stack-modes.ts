import { createHash, randomBytes } from 'node:crypto';
import type { HookContext, Hooks, Outgoing } from './hooks.ts';
import { isObject, parseJson, type Json, type JsonObject } from './json.ts';
import { problem } from './problem.ts';
import type { Store } from './store.ts';
import {
  AJV_FASTIFY_BINDING,
  bindBody,
  JACKSON_BINDING,
  PYDANTIC_BINDING,
  withNulls,
  type WrittenFields,
} from './stack-binding.ts';
import { usagePeriod } from './usage.ts';

/** A mode of how a common server stack behaves: its name, what it does, and its hooks for one start of the target. */
export interface StackMode {
  readonly name: string;
  readonly description: string;
  readonly install: (store: Pick<Store, 'alerts' | 'pipes'>) => Hooks;
}

/** The largest integer every double holds exactly, and its negative. */
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Modes of how ordinary servers are built (a JSON parser that keeps every digit, Python's `json.dumps`, a validator
 * that refuses integers a double cannot hold, uuid v7 ids, framework error bodies, a state that moves by itself);
 * each is correct by the documents.
 */
export const STACK_MODES: readonly StackMode[] = Object.freeze(
  (
    [
      mode('lossless-numbers', 'request JSON is parsed keeping every integer exactly (past 2^53 too), as sent', {
        parse: (text) => parseJson(text),
      }),
      mode(
        'large-integer-rounded',
        'request JSON keeps every digit, but answers write an integer past 2^53 as the nearest double',
        { parse: (text) => parseJson(text), result: (_ctx, r) => rounded(r) as JsonObject },
      ),
      mode(
        'unsafe-integers-refused',
        'a request number past ±(2^53−1) is rejected with 400, as a validator that wants exact integers does',
        {
          review: (ctx, problems) =>
            holdsUnsafeNumber(ctx.input)
              ? [...problems, problem('', 'invalid', 'a number past 2^53 cannot be stored exactly')]
              : problems,
        },
      ),
      mode(
        'python-timestamps',
        'every UTC date-time in a response is written as Python isoformat does: +00:00, with microseconds',
        {
          response: (_ctx, o) =>
            withBody(o, (body) => mapStrings(body, (text, key) => finerTime(text, key, 3, '+00:00'))),
        },
      ),
      mode('nanosecond-timestamps', "every UTC date-time in a response carries nine fraction digits, as Go's does", {
        response: (_ctx, o) => withBody(o, (body) => mapStrings(body, (text, key) => finerTime(text, key, 6, 'Z'))),
      }),
      {
        name: 'uuid-v7-ids',
        description: 'pipes and keys the target creates get uuid v7 ids (time-ordered), not v4',
        install: (store) => ({
          result: (ctx, r) => {
            if (ctx.operation === 'createKey' && isObject(r.key)) return { ...r, key: { ...r.key, id: uuidV7() } };
            if (ctx.operation !== 'createPipe' || typeof r.id !== 'string') return r;
            const pipe = store.pipes.get(r.id);
            if (!pipe) return r;
            const id = uuidV7();
            store.pipes.delete(pipe.id);
            store.pipes.set(id, { ...pipe, id });
            return { ...r, id };
          },
        }),
      },
      mode(
        'error-objects',
        'errors are {"error": {"code", "message"}} with a status of their kind: 403 for another organization, 405 ' +
          'for a method, 413 for a large body, 415 for a media type, 422 for an invalid body',
        { response: (ctx, o) => (o.status >= 400 && o.status !== 429 ? errorObject(ctx, o) : o) },
      ),
      {
        name: 'pipe-state-moves',
        description: "a pipe's state moves by itself: Provisioning when created, Running from the next request on",
        install: (store) => ({
          gate: () => {
            for (const [id, pipe] of store.pipes)
              if (pipe.state !== 'Running') store.pipes.set(id, { ...pipe, state: 'Running' });
            return undefined;
          },
        }),
      },
      mode(
        'python-floats',
        "answers are written as Python's json.dumps writes floats: 30000.0, 1e+16, 1.5e-07, non-ASCII as \\u escapes",
        {
          response: (_ctx, o) =>
            typeof o.body === 'object' && o.body !== null ? { ...o, body: pythonJson(o.body) } : o,
        },
      ),
      mode(
        'whole-second-timestamps',
        "every date-time the target stores is kept to the whole second, as Go's time.RFC3339 writes it and MySQL " +
          "DATETIME keeps it: a client's expireAt truncated too (…:26.001Z answered …:26Z), createdAt and updatedAt",
        { response: (_ctx, o) => withBody(o, (body) => mapStrings(body, (text, key) => keptTime(text, key, 'floor'))) },
      ),
      mode(
        'mysql-rounded-seconds',
        'every date-time the target stores is rounded to the nearest second, as MySQL DATETIME rounds a fraction it ' +
          'does not keep (…:26.500Z answered …:27Z), written +00:00',
        { response: (_ctx, o) => withBody(o, (body) => mapStrings(body, (text, key) => keptTime(text, key, 'round'))) },
      ),
      mode(
        'python-isoformat',
        "date-times as Python's datetime.isoformat writes them from PostgreSQL timestamptz: microseconds (none when " +
          'they are zero) and +00:00',
        { response: (_ctx, o) => withBody(o, (body) => mapStrings(body, isoformatTime)) },
      ),
      {
        name: 'jackson-spring',
        description:
          'Jackson as Spring Boot configures it: null written for every field with no value, a number or boolean ' +
          'sent for a text field stored and answered as text, numeric text for a number read as the number, ' +
          'unknown fields ignored',
        install: () => {
          const written: WrittenFields = new Map();
          return { read: bindBody(JACKSON_BINDING), result: (ctx, r) => withNulls(ctx, r, written) };
        },
      },
      mode(
        'ajv-fastify',
        "Ajv as Fastify sets it up (coerceTypes 'array', removeAdditional): scalars read as the field's type, a " +
          'scalar for a list as a list of it, fields a closed object does not name removed rather than refused',
        { read: bindBody(AJV_FASTIFY_BINDING) },
      ),
      {
        name: 'pydantic-lax',
        description:
          "Pydantic's lax mode behind FastAPI: numeric text read as a number, 'yes'/'on'/1 and the like as a " +
          'boolean, a number for a text field refused (422), unknown fields ignored, null written for fields with ' +
          'no value',
        install: () => {
          const written: WrittenFields = new Map();
          return {
            read: bindBody(PYDANTIC_BINDING),
            result: (ctx, r) => withNulls(ctx, r, written),
            response: (_ctx, o) => (o.status === 400 && o.problems?.length ? unprocessable(o) : o),
          };
        },
      },
      mode(
        'express-body-limit',
        "a request body over 100 KB is refused with 413, as Express's body-parser does by default (limit '100kb')",
        {
          review: (ctx, problems) =>
            jsonSize(ctx.input) > EXPRESS_BODY_LIMIT
              ? [problem('', 'too-large', 'request entity too large', 413)]
              : problems,
        },
      ),
      mode(
        'usage-utc-days',
        "a usage period is counted in UTC days, as the vendor's published API evaluates it: one of 30 days and some " +
          'hours whose last UTC date is 30 days after the first is accepted',
        {
          review: (ctx, problems) => {
            if (ctx.operation !== 'getUsageCost') return problems;
            const { from, to } = usagePeriod(ctx.input);
            const withinDays = from !== undefined && to !== undefined && to.utcDay - from.utcDay <= 30;
            return withinDays ? problems.filter((p) => p.code !== 'period-too-long') : problems;
          },
        },
      ),
    ] satisfies StackMode[]
  ).map((entry) => Object.freeze(entry)),
);

function mode(name: string, description: string, hooks: Hooks): StackMode {
  return { name, description, install: () => hooks };
}

/** An outgoing response with its JSON body (object or array) rewritten. */
function withBody(o: Outgoing, rewrite: (body: Json) => Json): Outgoing {
  return typeof o.body === 'object' && o.body !== null ? { ...o, body: rewrite(o.body) } : o;
}

/** Whether a request value holds a number no double holds exactly as an integer. */
function holdsUnsafeNumber(value: Json | undefined): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) > SAFE;
  if (Array.isArray(value)) return value.some(holdsUnsafeNumber);
  return isObject(value) && Object.values(value).some(holdsUnsafeNumber);
}

/** A value with every integer past 2^53 turned into the nearest double, where a double holds it. */
function rounded(value: Json | undefined): Json | undefined {
  if (typeof value === 'bigint') return Number.isFinite(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map((item) => rounded(item) ?? null);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rounded(item)]));
}

/** A value with every string rewritten, given the member name it stands under. */
function mapStrings(value: Json, rewrite: (text: string, key: string) => string, key = ''): Json {
  if (typeof value === 'string') return rewrite(value, key);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, rewrite, key));
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [name, item] of Object.entries(value))
    copy[name] = item === undefined ? item : mapStrings(item, rewrite, name);
  return copy;
}

/** The times the target sets itself, which a finer clock gives digits below the millisecond. */
const SERVER_TIMES = new Set(['createdAt', 'updatedAt', 'usedAt']);

/** A UTC date-time as the target writes it by default (`2026-11-26T10:00:00.000Z`). */
const UTC_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?Z$/;

/**
 * A UTC date-time with `extra` more fraction digits and `zone` for `Z`: digits of a finer clock for the times the
 * target sets, zeros for one a client sent (it keeps what was sent).
 */
function finerTime(text: string, key: string, extra: number, zone: string): string {
  const match = UTC_TIME.exec(text);
  if (!match) return text;
  const finer = SERVER_TIMES.has(key) ? finerDigits(text, extra) : '0'.repeat(extra);
  return `${match[1]}.${(match[2] ?? '').padEnd(3, '0')}${finer}${zone}`;
}

/** Digits below the millisecond, as a finer clock gives them: the same for the same stored time, as stored. */
function finerDigits(text: string, count: number): string {
  const hash = createHash('sha256').update(text).digest();
  return [...hash.subarray(0, count)].map((byte) => String(byte % 10)).join('');
}

/** A uuid of version 7: 48 bits of the time in milliseconds, then random bits, with its version and variant. */
function uuidV7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The code of an error object, by status. */
const ERROR_CODES: Readonly<Record<number, string>> = Object.freeze({
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
});

function errorObject(ctx: HookContext, o: Outgoing): Outgoing {
  const problems = o.problems ?? [];
  const otherOrganization = problems.some((p) => p.path === 'organizationId' && p.code === 'not-found');
  const invalidBody = o.status === 400 && problems.length > 0 && problems.every((p) => p.code !== 'malformed-json');
  const status = otherOrganization ? 403 : invalidBody ? 422 : o.status;
  const message = o.message ?? (ctx.api === 'alerts' ? 'request refused' : 'error');
  return {
    ...o,
    status,
    headers: { ...o.headers, 'content-type': 'application/json' },
    body: { error: { code: ERROR_CODES[status] ?? 'error', message } },
  };
}

/** A 400 for an invalid body answered as FastAPI does: 422, the envelope's status with it. */
function unprocessable(o: Outgoing): Outgoing {
  const body = isObject(o.body) && typeof o.body.status === 'number' ? { ...o.body, status: 422 } : o.body;
  return { ...o, status: 422, body };
}

/** Express's body-parser `limit` default, '100kb' (the bytes package reads kb as 1024 bytes). */
const EXPRESS_BODY_LIMIT = 100 * 1024;

/** The bytes of a value written as JSON (a bigint as its digits). */
function jsonSize(value: Json | undefined): number {
  if (value === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? 0 : item)));
}

/** The times a target stores: those it sets and a key's expiry a client sets. */
const STORED_TIMES = new Set(['createdAt', 'updatedAt', 'usedAt', 'expireAt']);

/** A UTC date-time a target stores, kept to the whole second: truncated (Go, MySQL fsp 0 reads) or rounded (MySQL). */
function keptTime(text: string, key: string, kept: 'floor' | 'round'): string {
  const match = UTC_TIME.exec(text);
  if (!match || !STORED_TIMES.has(key)) return text;
  const ms = Date.parse(text);
  const seconds = kept === 'floor' ? Math.floor(ms / 1000) : Math.round(ms / 1000);
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  return kept === 'floor' ? `${whole}Z` : `${whole}+00:00`;
}

/** A UTC date-time as Python's isoformat writes it: +00:00, microseconds (a finer clock's for the target's times). */
function isoformatTime(text: string, key: string): string {
  const match = UTC_TIME.exec(text);
  if (!match) return text;
  const micro = `${(match[2] ?? '').padEnd(3, '0')}${SERVER_TIMES.has(key) ? finerDigits(text, 3) : '000'}`;
  return `${match[1]}${/^0+$/.test(micro) ? '' : `.${micro}`}+00:00`;
}

/** JSON text as Python's `json.dumps` writes it: every number a float, `, ` and `: ` between, non-ASCII escaped. */
function pythonJson(value: Json): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint') return pythonFloat(Number(value));
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  const members = Object.entries(value).flatMap(([key, item]) =>
    item === undefined ? [] : [`${pythonJson(key)}: ${pythonJson(item)}`],
  );
  return `{${members.join(', ')}}`;
}

/** A number as Python's `repr` of a float writes it: the shortest digits, exponent past 1e16 or below 1e-4. */
function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  const [mantissa = '0', power = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(power);
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const shown = `${Math.abs(exponent)}`.padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${shown}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
}
