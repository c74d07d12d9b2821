import * as fc from 'fast-check';
import { oddNumber } from './oddNumber.ts';
import { oddText } from './oddText.ts';

/** A place in a JSON value: object keys and array indices from the root. */
export type JsonPath = readonly (string | number)[];

type Json = string | number | bigint | boolean | null | Json[] | { [key: string]: Json };

/** Which parts of a complete body an observe variant may change. */
export interface VariantRules {
  /** Whether the object property at `path` may be left out. */
  readonly droppable: (path: JsonPath) => boolean;
  /** Whether the string or number at `path` may take an unusual value of its type. */
  readonly open: (path: JsonPath) => boolean;
}

/** Every object property of a JSON value as a path, parents before children; array items are walked, not listed. */
function propertyPaths(value: Json, prefix: JsonPath = []): JsonPath[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => propertyPaths(item, [...prefix, index]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...propertyPaths(child, [...prefix, key])]);
}

/** Every string and number of a JSON value, with its path. */
function leaves(value: Json, prefix: JsonPath = []): [JsonPath, string | number][] {
  if (typeof value === 'string' || typeof value === 'number') return [[prefix, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...prefix, index]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...prefix, key]));
}

/** A deep copy of `value` with the properties at `drop` left out and the leaves at `replace` changed. */
function edited(value: Json, drop: readonly JsonPath[], replace: readonly [JsonPath, Json][]): Json {
  const copy = structuredClone(value);
  const parentOf = (path: JsonPath): Json | undefined =>
    path
      .slice(0, -1)
      .reduce<Json | undefined>(
        (node, key) =>
          node !== null && typeof node === 'object' ? (node as Record<string | number, Json>)[key] : undefined,
        copy,
      );
  for (const [path, next] of replace) {
    const parent = parentOf(path);
    const last = path.at(-1);
    if (parent !== null && typeof parent === 'object' && last !== undefined)
      (parent as Record<string | number, Json>)[last] = next;
  }
  for (const path of drop) {
    const parent = parentOf(path);
    if (parent !== null && typeof parent === 'object' && !Array.isArray(parent))
      delete parent[path[path.length - 1] as string];
  }
  return copy;
}

/**
 * Observe variants of a complete body: some droppable properties left out (at least `minDrop`) and some open leaves
 * given unusual values of their type, at least one change in all.
 */
export function observeVariant<T extends object>(
  body: T,
  rules: VariantRules,
  constraints: { minDrop?: number } = {},
): fc.Arbitrary<Partial<T>> {
  const json = body as unknown as Json;
  const droppable = propertyPaths(json).filter(rules.droppable);
  const open = leaves(json).filter(([path]) => rules.open(path));
  const keep = fc.constant(undefined);
  const replacements = fc.tuple(
    ...open.map(([, value]) =>
      fc.oneof(
        { weight: 3, arbitrary: keep },
        { weight: 1, arbitrary: typeof value === 'string' ? oddText() : oddNumber() },
      ),
    ),
  );
  return fc
    .record(
      {
        drop: fc.subarray(droppable, { minLength: Math.min(constraints.minDrop ?? 0, droppable.length) }),
        values: replacements,
      },
      { noNullPrototype: true },
    )
    .map(({ drop, values }) => ({
      drop,
      replace: open.flatMap(([path], index): [JsonPath, Json][] =>
        values[index] === undefined ? [] : [[path, values[index]!]],
      ),
    }))
    .filter(({ drop, replace }) => drop.length + replace.length > 0)
    .map(({ drop, replace }) => edited(json, drop, replace) as Partial<T>);
}
