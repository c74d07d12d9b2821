import { jsonText } from '../../core/json-text.ts';

type Fields = Readonly<Record<string, unknown>>;

/** The value at a dotted `path` of `object`, if every step of it is an object. */
export function valueAt(object: unknown, path: string): unknown {
  let at = object;
  for (const step of path.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Fields)[step];
  }
  return at;
}

/** A copy of `object` with `path` set to `value` (copying each object on the way). */
export function withValueAt<T>(object: T, path: string, value: unknown): T {
  const [step, ...rest] = path.split('.') as [string, ...string[]];
  const copy = { ...(object as Fields) } as Record<string, unknown>;
  copy[step] = rest.length === 0 ? value : withValueAt(copy[step], rest.join('.'), value);
  return copy as T;
}

/**
 * A copy of `object` without the fields at `paths`, and without any object that leaves empty (a body created without
 * its open fields).
 */
export function withoutPaths<T extends Fields>(object: T, paths: readonly string[]): T {
  const strip = (value: unknown, prefix: string): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const kept = Object.entries(value).flatMap(([key, item]): [string, unknown][] => {
      const path = prefix ? `${prefix}.${key}` : key;
      if (paths.includes(path)) return [];
      const stripped = strip(item, path);
      const emptied = typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length > 0;
      return emptied && Object.keys(stripped as object).length === 0 ? [] : [[key, stripped]];
    });
    return Object.fromEntries(kept);
  };
  return strip(object, '') as T;
}

/**
 * The values of the open fields (the request fields the specs mark `x-conformance-open`, `Operation.openFields`: each a
 * dotted path such as `settings.engine_max_threads` or `source.relational.port`) that this target answered or accepted
 * in this run: the only values a must-accept probe sends there (RULES.md).
 */
export class OpenValues {
  /** Each open path's values learned, each with its JSON text (what tells two values apart, a bigint included). */
  private readonly known = new Map<string, { readonly value: unknown; readonly text: string }[]>();
  /**
   * Set when the target refused a body without the open fields, in words that name a documented field other than
   * them: no value whose bounds are not shown explains its refusals, so must-accept probes go without learned values.
   */
  unexplained: string | undefined;

  /** Notes the values that `object` (a body the target accepted, or its answer) holds at the open `paths`. */
  learn(paths: readonly string[], object: unknown): void {
    for (const path of paths) {
      const value = valueAt(object, path);
      if (value === undefined || value === null || typeof value === 'object') continue;
      const text = jsonText(value);
      const list = this.known.get(path) ?? [];
      if (!list.some((seen) => seen.text === text)) list.push({ value, text });
      this.known.set(path, list);
    }
  }

  /** Every open path under `prefix` with values learned, each with them (in the order learned), keyed below it. */
  entries(prefix: string): [key: string, values: readonly unknown[]][] {
    return [...this.known].flatMap(([path, values]): [string, readonly unknown[]][] =>
      path.startsWith(`${prefix}.`) ? [[path.slice(prefix.length + 1), values.map(({ value }) => value)]] : [],
    );
  }

  /** Whether the target has given a value of the open `path`. */
  has(path: string): boolean {
    return this.known.has(path);
  }

  /** The open `paths` that `body` sends and for which the target has given no value yet. */
  missing(paths: readonly string[], body: Fields): string[] {
    return paths.filter((path) => valueAt(body, path) !== undefined && !this.known.has(path));
  }

  /**
   * `body` with every open path it sends given a learned value, picked by `choice`; with `other`, a value other than
   * `other`'s at the same path where one is known (a change a PATCH must apply). Undefined when a path has none.
   */
  fill<T extends Fields>(paths: readonly string[], body: T, choice: number, other?: Fields): T | undefined {
    if (this.missing(paths, body).length > 0) return undefined;
    let filled = body;
    let index = 0;
    for (const path of paths) {
      if (valueAt(body, path) === undefined) continue;
      const list = this.known.get(path)!;
      const before = other === undefined ? undefined : jsonText(valueAt(other, path) ?? null);
      const changed = before === undefined ? list : list.filter(({ text }) => text !== before);
      const from = changed.length > 0 ? changed : list;
      filled = withValueAt(filled, path, from[(choice + index++) % from.length]!.value);
    }
    return filled;
  }
}

/** The values a sequence's must-accept steps send in the open fields, and which fields those are. */
export interface OpenFieldValues {
  readonly values: OpenValues;
  readonly create: readonly string[];
  readonly update: readonly string[];
}

/** A stable choice among learned values for a body: from its name, so that a shrunk or replayed body picks the same. */
export function choiceOf(body: Readonly<Record<string, unknown>>): number {
  const name = typeof body.name === 'string' ? body.name : '';
  let hash = 0;
  for (let at = 0; at < name.length; at++) hash = (hash * 31 + name.charCodeAt(at)) >>> 0;
  return hash;
}

/** Why a must-accept probe with open fields was not sent: the target gave no value of `missing`, `where`. */
export function noOpenValues(
  missing: readonly string[],
  where = 'it refused every observe probe that sent them and its answers showed none',
): string {
  return (
    `the target gave no value of ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ' and more' : ''} ` +
    `(their bounds are not shown; ${where}), so no must-accept probe may send them`
  );
}
