import { isJsonNumber, isObject, type Json, type JsonObject } from './json.ts';
import { problem, type Problem } from './problem.ts';
import { parseDateTime } from './timestamp.ts';

interface FieldFlags {
  /** The field must be present. */
  readonly required?: boolean;
  /** The field is accepted in requests and never returned. */
  readonly requestOnly?: boolean;
}

/** A declarative description of one request field, checked by `check` and copied by `project`. */
export type FieldSpec =
  | (FieldFlags & {
      readonly type: 'string';
      readonly enum?: readonly string[];
      readonly pattern?: { readonly regex: RegExp; readonly hint: string };
      readonly format?: 'date-time';
    })
  | (FieldFlags & { readonly type: 'number' })
  | (FieldFlags & { readonly type: 'boolean' })
  | (FieldFlags & { readonly type: 'array'; readonly items: FieldSpec; readonly minItems?: number })
  | (FieldFlags & {
      readonly type: 'object';
      readonly fields: Readonly<Record<string, FieldSpec>>;
      /** Fields not listed are refused rather than ignored. */
      readonly closed?: boolean;
    });

type StringOptions = Omit<Extract<FieldSpec, { type: 'string' }>, 'type'>;

/** A string field. */
export const str = (options: StringOptions = {}): FieldSpec => ({ type: 'string', ...options });
/** A number field: a finite number, or an integer past 2^53 (kept exactly). */
export const num = (): FieldSpec => ({ type: 'number' });
/** A boolean field. */
export const bool = (): FieldSpec => ({ type: 'boolean' });
/** An array field whose items all follow one spec. */
export const arr = (items: FieldSpec, minItems?: number): FieldSpec => ({ type: 'array', items, minItems });
/** An object field with named fields; `closed` refuses the fields it does not name. */
export const obj = (fields: Readonly<Record<string, FieldSpec>>, closed = false): FieldSpec => ({
  type: 'object',
  fields,
  closed,
});
/** Marks a field as required. */
export const required = (spec: FieldSpec): FieldSpec => ({ ...spec, required: true });
/** Marks a field as accepted in requests only, never returned. */
export const requestOnly = (spec: FieldSpec): FieldSpec => ({ ...spec, requestOnly: true });

/** Returns every problem of a value against a spec; `path` names the value in messages (empty for the body). */
export function check(spec: FieldSpec, value: Json | undefined, path: string): Problem[] {
  const name = path === '' ? 'body' : path;
  if (value === undefined) return spec.required ? [problem(path, 'required', `${name} is required`)] : [];
  switch (spec.type) {
    case 'string':
      return checkString(spec, value, path, name);
    case 'number':
      return isJsonNumber(value) ? [] : [typeProblem(path, name, 'a number')];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [typeProblem(path, name, 'a boolean')];
    case 'array': {
      if (!Array.isArray(value)) return [typeProblem(path, name, 'an array')];
      const found = value.flatMap((item, index) => check(spec.items, item, `${path}[${index}]`));
      if (spec.minItems !== undefined && value.length < spec.minItems) {
        found.push(problem(path, 'min-items', `${name} must have at least ${spec.minItems} element(s)`));
      }
      return found;
    }
    case 'object': {
      if (!isObject(value)) return [typeProblem(path, name, path === '' ? 'a JSON object' : 'an object')];
      const found = Object.entries(spec.fields).flatMap(([key, field]) => check(field, value[key], join(path, key)));
      if (spec.closed) {
        for (const key of Object.keys(value)) {
          if (!(key in spec.fields)) {
            found.push(problem(join(path, key), 'unknown-field', `${join(path, key)} is not accepted here`));
          }
        }
      }
      return found;
    }
  }
}

/** Copies a checked value keeping only the fields its spec names and may return. */
export function project(spec: FieldSpec, value: Json): Json {
  if (spec.type === 'array' && Array.isArray(value)) return value.map((item) => project(spec.items, item));
  if (spec.type !== 'object' || !isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, field] of Object.entries(spec.fields)) {
    const item = value[key];
    if (item !== undefined && !field.requestOnly) copy[key] = project(field, item);
  }
  return copy;
}

/** Joins an object path and a key. */
export function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function checkString(spec: Extract<FieldSpec, { type: 'string' }>, value: Json, path: string, name: string): Problem[] {
  if (typeof value !== 'string') return [typeProblem(path, name, 'a string')];
  if (spec.enum !== undefined && !spec.enum.includes(value)) {
    return [problem(path, 'enum', `${name} must be one of ${spec.enum.join(', ')}`)];
  }
  if (spec.pattern !== undefined && !spec.pattern.regex.test(value)) {
    return [problem(path, 'pattern', `${name} must be ${spec.pattern.hint}`)];
  }
  if (spec.format === 'date-time' && parseDateTime(value) === undefined) {
    return [problem(path, 'format', `${name} must be an RFC 3339 date-time`)];
  }
  return [];
}

function typeProblem(path: string, name: string, expected: string): Problem {
  return problem(path, 'type', `${name} must be ${expected}`);
}

/**
 * Every field a spec names that a value leaves out, at any depth (each array item's fields too), as paths; a value of
 * the wrong shape is left to `check`.
 */
export function absentFields(spec: FieldSpec, value: Json | undefined, path: string): string[] {
  if (value === undefined) return [path === '' ? 'body' : path];
  if (spec.type === 'array')
    return Array.isArray(value)
      ? value.flatMap((item, index) => absentFields(spec.items, item, `${path}[${index}]`))
      : [];
  if (spec.type !== 'object' || !isObject(value)) return [];
  return Object.entries(spec.fields).flatMap(([key, field]) => absentFields(field, value[key], join(path, key)));
}
