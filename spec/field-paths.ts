/**
 * The fields a schema documents, as dotted paths through objects and arrays alike (`destination.columns.name`: a list
 * and one entry, as `costs` may be, are the same field), and the enum values of each.
 */
export interface DocumentedFields {
  readonly fields: readonly string[];
  readonly enums: Readonly<Record<string, readonly string[]>>;
  /** The free-text fields: strings with no enum, format or pattern. */
  readonly texts: readonly string[];
}

type Schema = Readonly<Record<string, unknown>>;

const BRANCHES = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * Every property path a JSON Schema documents, at any depth, through arrays and `anyOf`/`oneOf`/`allOf`, with its
 * string enums.
 */
export function documentedFields(schema: object | undefined): DocumentedFields {
  const fields = new Set<string>();
  const enums = new Map<string, Set<string>>();
  const texts = new Set<string>();
  const walk = (node: unknown, prefix: string, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 12) return;
    const s = node as Schema;
    const string = s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));
    if (string && prefix !== '' && s.enum === undefined && s.format === undefined && s.pattern === undefined)
      texts.add(prefix);
    if (Array.isArray(s.enum) && prefix !== '') {
      const values = enums.get(prefix) ?? new Set<string>();
      for (const value of s.enum) if (typeof value === 'string') values.add(value);
      enums.set(prefix, values);
    }
    for (const key of BRANCHES)
      if (Array.isArray(s[key])) for (const branch of s[key] as unknown[]) walk(branch, prefix, depth + 1);
    if (s.items) walk(s.items, prefix, depth + 1);
    if (s.properties && typeof s.properties === 'object') {
      for (const [name, child] of Object.entries(s.properties as Record<string, unknown>)) {
        const path = prefix === '' ? name : `${prefix}.${name}`;
        fields.add(path);
        walk(child, path, depth + 1);
      }
    }
  };
  walk(schema, '', 0);
  return {
    fields: [...fields],
    enums: Object.fromEntries([...enums].map(([path, values]) => [path, [...values]])),
    texts: [...texts],
  };
}

/**
 * The property paths present in a JSON value, in the same notation, and the strings found at each of `stringPaths` (its
 * enum or free-text fields).
 */
export function presentFields(
  value: unknown,
  stringPaths: ReadonlySet<string>,
): { fields: Set<string>; values: Map<string, Set<string>> } {
  const fields = new Set<string>();
  const values = new Map<string, Set<string>>();
  const walk = (node: unknown, prefix: string, depth: number): void => {
    if (depth > 12) return;
    if (typeof node === 'string' && stringPaths.has(prefix)) {
      const set = values.get(prefix) ?? new Set<string>();
      set.add(node);
      values.set(prefix, set);
    }
    if (Array.isArray(node)) {
      for (const item of node) walk(item, prefix, depth + 1);
      return;
    }
    if (node && typeof node === 'object') {
      for (const [name, child] of Object.entries(node)) {
        const path = prefix === '' ? name : `${prefix}.${name}`;
        fields.add(path);
        walk(child, path, depth + 1);
      }
    }
  };
  walk(value, '', 0);
  return { fields, values };
}
