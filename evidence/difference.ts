import { jsonText } from '../core/json-text.ts';

/** One field whose value tells a failing request from a passing one: its JSON pointer and both values. */
export interface FieldDifference {
  readonly path: string;
  /** The value in the failing request; undefined when the field is absent there. */
  readonly failing?: unknown;
  /** The value in the passing request; undefined when the field is absent there. */
  readonly passing?: unknown;
}

/** A field value that every failing request has and no passing one has. */
export interface SharedValue {
  readonly path: string;
  readonly value: unknown;
}

/** Every leaf of a JSON value (a scalar, an empty array or object) by its JSON pointer, with the leaf's JSON text. */
export function leaves(value: unknown, path = ''): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: unknown, at: string): void => {
    const entries = Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : node !== null && typeof node === 'object'
        ? Object.entries(node)
        : undefined;
    if (entries === undefined || entries.length === 0) {
      out.set(at, jsonText(node) ?? 'undefined');
      return;
    }
    for (const [key, child] of entries) visit(child, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
  };
  visit(value, path);
  return out;
}

/** The leaves in which two JSON values differ, in the failing value's order, then the passing value's extra leaves. */
export function differences(failing: unknown, passing: unknown): FieldDifference[] {
  const a = leaves(failing);
  const b = leaves(passing);
  const paths = [...a.keys(), ...[...b.keys()].filter((path) => !a.has(path))];
  return paths
    .filter((path) => a.get(path) !== b.get(path))
    .map((path) => ({ path, ...parsed('failing', a.get(path)), ...parsed('passing', b.get(path)) }));
}

/** The leaf values that every failing value has and no passing value has (empty when there is no failing value). */
export function sharedValues(failing: readonly unknown[], passing: readonly unknown[]): SharedValue[] {
  const [first, ...rest] = failing.map((value) => leaves(value));
  if (!first) return [];
  const passed = passing.map((value) => leaves(value));
  return [...first]
    .filter(
      ([path, text]) =>
        rest.every((other) => other.get(path) === text) && passed.every((other) => other.get(path) !== text),
    )
    .map(([path, text]) => ({ path, value: JSON.parse(text) as unknown }));
}

/** A field and its value as prose: `` `source: "search"` ``, or `` `source` absent ``. */
export function fieldText(path: string, value: unknown): string {
  const name = fieldName(path);
  return value === undefined ? `\`${name}\` absent` : `\`${name}: ${preview(value)}\``;
}

/** A JSON pointer as a field name: `/channel/type` as `channel.type`, `` as `the body`. */
export function fieldName(path: string): string {
  if (path === '') return 'the body';
  return path
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function parsed(side: 'failing' | 'passing', text: string | undefined): Partial<FieldDifference> {
  return text === undefined || text === 'undefined' ? {} : { [side]: JSON.parse(text) as unknown };
}

function preview(value: unknown): string {
  const text = jsonText(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
