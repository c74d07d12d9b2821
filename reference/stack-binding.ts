import type { HookContext, OperationId } from './hooks.ts';
import { isJsonNumber, isObject, type Json, type JsonObject } from './json.ts';
import { KEY_SPEC } from './keys.ts';
import { UPDATE_ALERT_SPEC } from './alerts.ts';
import {
  CREATE_PIPE_SPEC,
  CREATE_SOURCE_SPECS,
  DESTINATION_SPEC,
  UPDATE_PIPE_SPEC,
  UPDATE_SOURCE_SPECS,
} from './pipe-spec.ts';
import { bool, obj, str, type FieldSpec } from './validate.ts';

/** How a stack reads a scalar sent for a field of another type: the value it binds, or undefined to leave it. */
export type ScalarReading = (type: 'string' | 'number' | 'boolean', value: Json) => Json | undefined;

/** How a stack binds a request body: its scalar readings, unknown fields dropped (where), a scalar as a list. */
export interface Binding {
  readonly reading: ScalarReading;
  /** `everywhere` drops every field the body's spec does not name; `closed` only in objects that refuse them. */
  readonly dropUnknown: 'everywhere' | 'closed';
  /** Whether a scalar sent for a list is read as a list of it (Ajv's `coerceTypes: 'array'`). */
  readonly scalarAsList?: boolean;
}

/** A numeric text: what `Number` reads as a finite number, and not empty. */
const numeric = (text: string): number | undefined => {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(value) ? value : undefined;
};

/**
 * Jackson as Spring Boot configures it: `MapperFeature.ALLOW_COERCION_OF_SCALARS` on (a number or boolean token read
 * as text, a numeric text as a number, "true"/"false" as a boolean), `FAIL_ON_UNKNOWN_PROPERTIES` off.
 */
export const JACKSON_BINDING: Binding = Object.freeze<Binding>({
  reading: (type, value) => {
    if (type === 'string') return isJsonNumber(value) || typeof value === 'boolean' ? String(value) : undefined;
    if (type === 'number') return typeof value === 'string' ? numeric(value) : undefined;
    if (typeof value !== 'string') return undefined;
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : undefined;
  },
  dropUnknown: 'everywhere',
});

/**
 * Ajv as Fastify sets it up (`coerceTypes: 'array'`, `removeAdditional: true`): `'' + x` to text, `+x` to a number
 * where `x == +x` or from a boolean, `'true'`/`'false'`/1/0 to a boolean; a scalar for a list as a list of it;
 * fields an object's schema closes (`additionalProperties: false`) removed.
 */
export const AJV_FASTIFY_BINDING: Binding = Object.freeze<Binding>({
  reading: (type, value) => {
    if (type === 'string') return isJsonNumber(value) || typeof value === 'boolean' ? String(value) : undefined;
    if (type === 'number') {
      if (typeof value === 'boolean') return value ? 1 : 0;
      return typeof value === 'string' && value !== '' ? numeric(value) : undefined;
    }
    if (value === 'true' || value === 1) return true;
    return value === 'false' || value === 0 ? false : undefined;
  },
  dropUnknown: 'closed',
  scalarAsList: true,
});

/**
 * Pydantic v2's lax mode (its conversion table): a numeric str or a bool to a number, 0/1 and 'yes', 'on', 't' and the
 * like to a bool; a number is never read as a str; `extra='ignore'` drops unknown fields.
 */
export const PYDANTIC_BINDING: Binding = Object.freeze<Binding>({
  reading: (type, value) => {
    if (type === 'string') return undefined;
    if (type === 'number') {
      if (typeof value === 'boolean') return value ? 1 : 0;
      return typeof value === 'string' ? numeric(value) : undefined;
    }
    if (isJsonNumber(value)) return Number(value) === 1 ? true : Number(value) === 0 ? false : undefined;
    if (typeof value !== 'string') return undefined;
    const text = value.toLowerCase();
    if (['1', 'on', 't', 'true', 'y', 'yes'].includes(text)) return true;
    return ['0', 'off', 'f', 'false', 'n', 'no'].includes(text) ? false : undefined;
  },
  dropUnknown: 'everywhere',
});

/** The spec a body of an operation is bound to: the source kinds' fields under `source`. */
function bodySpec(operation: OperationId | undefined): FieldSpec | undefined {
  const withSources = (spec: FieldSpec, kinds: Readonly<Record<string, FieldSpec>>): FieldSpec =>
    spec.type === 'object'
      ? { ...spec, fields: { ...spec.fields, source: obj({ validateSamples: bool(), ...kinds }) } }
      : spec;
  switch (operation) {
    case 'createKey':
      return KEY_SPEC.type === 'object' ? { ...KEY_SPEC, fields: { ...KEY_SPEC.fields, expireAt: str() } } : KEY_SPEC;
    case 'updateAlert':
      return UPDATE_ALERT_SPEC;
    case 'createPipe':
      return withSources(CREATE_PIPE_SPEC, CREATE_SOURCE_SPECS);
    case 'updatePipe':
      return withSources(UPDATE_PIPE_SPEC, UPDATE_SOURCE_SPECS);
    case 'changeServiceState':
      return obj({ command: str() });
    default:
      return undefined;
  }
}

/** The hook that reads a body as `binding` binds it. */
export function bindBody(binding: Binding): (ctx: HookContext, body: Json | undefined) => Json | undefined {
  return (ctx, body) => {
    const spec = bodySpec(ctx.operation);
    return spec === undefined || body === undefined ? body : bound(spec, body, binding);
  };
}

function bound(spec: FieldSpec, value: Json, binding: Binding): Json {
  switch (spec.type) {
    case 'array': {
      const list = Array.isArray(value) ? value : binding.scalarAsList && !isObject(value) ? [value] : undefined;
      return list === undefined ? value : list.map((item) => bound(spec.items, item, binding));
    }
    case 'object': {
      if (!isObject(value)) return value;
      const copy: JsonObject = {};
      for (const [key, item] of Object.entries(value)) {
        const field = spec.fields[key];
        if (field === undefined) {
          if (binding.dropUnknown === 'everywhere' || spec.closed) continue;
          copy[key] = item;
        } else copy[key] = item === undefined ? item : bound(field, item, binding);
      }
      return copy;
    }
    case 'string':
      // An enum value stays an enum value: what is not one is refused, never read as one.
      return spec.enum !== undefined && typeof value !== 'string' ? value : (binding.reading('string', value) ?? value);
    default:
      return value === null ? value : (binding.reading(spec.type, value) ?? value);
  }
}

/** The fields of each optional service feature, null for a service that does not use it. */
const UNUSED_SERVICE_FIELDS = Object.freeze([
  'byocId',
  'encryptionKey',
  'encryptionAssumedRoleIdentifier',
  'transparentDataEncryptionKeyId',
  'encryptionRoleId',
]);

/** An object with every field of `spec` it lacks (and may return) written as null, at any depth of objects. */
function nullsFor(spec: FieldSpec, value: Json | undefined): Json | undefined {
  if (spec.type !== 'object' || !isObject(value)) return value;
  const copy: JsonObject = { ...value };
  for (const [key, field] of Object.entries(spec.fields)) {
    if (field.requestOnly) continue;
    copy[key] = copy[key] === undefined ? null : nullsFor(field, copy[key]);
  }
  return copy;
}

/** The fields of an alert that hold no value (the reference writes `''`) for the source kind it does not watch. */
const ALERT_KIND_FIELDS = Object.freeze(['tileId', 'dashboard', 'savedSearch', 'groupBy']);

/** An alert with every field that holds no value written as null: `''` that no client wrote (`written`, by id). */
/** The alert fields a list entry does not carry, as a serializer of one class for both writes them: null. */
const LIST_ENTRY_NULLS: JsonObject = Object.freeze({ savedSearch: null, groupBy: null, silenced: null });

function alertWithNulls(alert: Json, written: ReadonlyMap<string, ReadonlySet<string>>): Json {
  if (!isObject(alert)) return alert;
  const mine = written.get(String(alert.id)) ?? new Set<string>();
  return Object.fromEntries(
    Object.entries(alert).map(([key, item]) => [
      key,
      ALERT_KIND_FIELDS.includes(key) && item === '' && !mine.has(key) ? null : item,
    ]),
  );
}

/** The alert fields a client wrote, by alert id: a value it sent is a value, `''` too. */
export type WrittenFields = Map<string, Set<string>>;

/** Records the alert fields an accepted update wrote (`dashboardId` as `dashboard`). */
function recordWritten(ctx: HookContext, written: WrittenFields): void {
  if (ctx.operation !== 'updateAlert' || !isObject(ctx.input) || ctx.params.id === undefined) return;
  const id = ctx.params.id.toLowerCase();
  const fields = written.get(id) ?? new Set<string>();
  for (const key of Object.keys(ctx.input)) fields.add(key === 'dashboardId' ? 'dashboard' : key);
  written.set(id, fields);
}

/**
 * A result with `null` written for every field with no value, as Jackson (`JsonInclude.Include.ALWAYS`), Pydantic
 * and Go's pointers write it: a key's `usedAt`, the fields of a pipe's source and destination the request left out,
 * a service's unused features, an alert's fields that hold no value.
 */
export function withNulls(ctx: HookContext, result: JsonObject, written: WrittenFields): JsonObject {
  recordWritten(ctx, written);
  switch (ctx.operation) {
    case 'createKey':
      return isObject(result.key) ? { ...result, key: { usedAt: null, ...result.key } } : result;
    case 'changeServiceState':
      return { ...result, ...Object.fromEntries(UNUSED_SERVICE_FIELDS.map((field) => [field, null])) };
    case 'createPipe':
    case 'updatePipe': {
      const source = isObject(result.source) ? result.source : {};
      const kind = Object.keys(CREATE_SOURCE_SPECS).find((name) => isObject(source[name]));
      return {
        ...result,
        ...(kind === undefined
          ? {}
          : {
              source: {
                ...source,
                [kind]: nullsFor(CREATE_SOURCE_SPECS[kind as keyof typeof CREATE_SOURCE_SPECS], source[kind]) ?? null,
              },
            }),
        destination: nullsFor(DESTINATION_SPEC, result.destination) ?? null,
      };
    }
    case 'updateAlert':
      return { ...result, data: alertWithNulls(result.data ?? null, written) };
    case 'listAlerts':
      // One class for the alert and its list entry: the fields a list entry leaves out are written as null.
      return Array.isArray(result.data)
        ? {
            ...result,
            data: result.data.map((alert) =>
              isObject(alert) ? { ...LIST_ENTRY_NULLS, ...(alertWithNulls(alert, written) as JsonObject) } : alert,
            ),
          }
        : result;
    default:
      return result;
  }
}
