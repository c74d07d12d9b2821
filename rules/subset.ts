import type { Violation } from '../rule-model/rule.ts';
import { asObject } from './body.ts';
import { jsonText } from '../core/json-text.ts';
import { type DocumentedType, sameStoredValue } from '../core/sameness.ts';
import { FORM_KEYWORD } from '../spec/spec.ts';

/**
 * Every place where `actual` does not carry a value of `expected`: objects may have more keys, arrays must have the
 * same elements in any order, and each scalar is the same stored value by the table of equivalences
 * (`core/sameness.ts`), read by its documented type where `schema` (the JSON Schema of `expected`) gives it.
 */
export function subsetViolations(expected: unknown, actual: unknown, path: string, schema?: unknown): Violation[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected: `an array like ${jsonText(expected)}`, actual }];
    if (actual.length !== expected.length)
      return [{ path, expected: `${expected.length} elements: ${jsonText(expected)}`, actual }];
    const items = documentedItems(schema);
    const unused = [...actual];
    for (let index = 0; index < expected.length; index++) {
      const item: unknown = expected[index];
      const match = unused.findIndex((candidate) => subsetViolations(item, candidate, '', items).length === 0);
      if (match === -1) return [{ path: `${path}/${index}`, expected: `an element ${jsonText(item)}`, actual }];
      unused.splice(match, 1);
    }
    return [];
  }
  const expectedObject = asObject(expected);
  if (expectedObject) {
    const actualObject = asObject(actual);
    if (!actualObject) return [{ path, expected: 'an object', actual }];
    const violations: Violation[] = [];
    for (const key in expectedObject) {
      const value = expectedObject[key];
      if (value !== undefined)
        violations.push(
          ...subsetViolations(value, actualObject[key], `${path}/${key}`, documentedProperty(schema, key)),
        );
    }
    return violations;
  }
  return sameStoredValue(expected, actual, documentedType(schema))
    ? []
    : [{ path, expected: jsonText(expected), actual }];
}

/** The schemas a schema is made of: itself and its `allOf`, `anyOf` and `oneOf` branches, at any depth. */
function branches(schema: unknown): Record<string, unknown>[] {
  const object = asObject(schema);
  if (!object) return [];
  const nested = ['allOf', 'anyOf', 'oneOf'].flatMap((keyword) =>
    Array.isArray(object[keyword]) ? (object[keyword] as unknown[]).flatMap(branches) : [],
  );
  return [object, ...nested];
}

/**
 * The documented type of a scalar: the types, format and enum of every branch of its schema, together; a string marked
 * as a time in a form not pinned down (`x-conformance-form: time`) is read as a date-time.
 */
export function documentedType(schema: unknown): DocumentedType | undefined {
  const all = branches(schema);
  if (all.length === 0) return undefined;
  const type = all.flatMap((branch) =>
    typeof branch.type === 'string' ? [branch.type] : Array.isArray(branch.type) ? (branch.type as string[]) : [],
  );
  const format =
    (all.find((branch) => typeof branch.format === 'string')?.format as string | undefined) ??
    (all.some((branch) => branch[FORM_KEYWORD] === 'time') ? 'date-time' : undefined);
  const values = all.find((branch) => Array.isArray(branch.enum))?.enum as unknown[] | undefined;
  return {
    ...(type.length > 0 ? { type } : {}),
    ...(format === undefined ? {} : { format }),
    ...(values === undefined ? {} : { enum: values }),
  };
}

/** The documented schema of an object's property, where a branch of `schema` gives one. */
export function documentedProperty(schema: unknown, key: string): unknown {
  for (const branch of branches(schema)) {
    const property = asObject(branch.properties)?.[key];
    if (property !== undefined) return property;
  }
  return undefined;
}

/** The documented schema of an array's items, where a branch of `schema` gives one. */
export function documentedItems(schema: unknown): unknown {
  return branches(schema).find((branch) => asObject(branch.items) !== undefined)?.items;
}

/** A deep copy of a JSON value without the named keys, at any depth. */
export function omitKeys(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => omitKeys(item, keys));
  const object = asObject(value);
  if (!object) return value;
  const kept: [string, unknown][] = [];
  for (const key in object) if (!keys.has(key)) kept.push([key, omitKeys(object[key], keys)]);
  return Object.fromEntries(kept);
}
