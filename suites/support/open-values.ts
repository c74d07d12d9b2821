import { jsonText } from '../../core/json-text.ts';

/**
 * The values of the open fields (the request objects the spec marks `x-conformance-open`: pipe settings and scaling)
 * that this target answered or accepted in this run: the only values a must-accept probe sends there (RULES.md).
 */
export class OpenValues {
  private readonly known = new Map<string, unknown[]>();

  /** Notes the values of one open field's object (`settings`, `scaling`) that the target answered or accepted. */
  learn(field: string, object: unknown): void {
    if (typeof object !== 'object' || object === null || Array.isArray(object)) return;
    for (const [key, value] of Object.entries(object)) {
      if (value === undefined || value === null) continue;
      const list = this.known.get(`${field}.${key}`) ?? [];
      if (!list.some((seen) => jsonText(seen) === jsonText(value))) list.push(value);
      this.known.set(`${field}.${key}`, list);
    }
  }

  /** Every key of an open field with values learned, each with them (in the order learned). */
  entries(field: string): [key: string, values: readonly unknown[]][] {
    return [...this.known].flatMap(([path, values]): [string, readonly unknown[]][] =>
      path.startsWith(`${field}.`) ? [[path.slice(field.length + 1), values]] : [],
    );
  }

  /** The keys of `body`'s open `fields` for which the target has given no value yet, as `field.key`. */
  missing(fields: readonly string[], body: Readonly<Record<string, unknown>>): string[] {
    return fields.flatMap((field) =>
      Object.keys((body[field] as Record<string, unknown> | undefined) ?? {})
        .map((key) => `${field}.${key}`)
        .filter((path) => !this.known.has(path)),
    );
  }

  /**
   * `body` with every key of its open `fields` given a learned value, picked by `choice`; with `other`, a value other
   * than `other`'s where one is known (a change a PATCH must apply). Undefined when a key has none.
   */
  fill<T extends Record<string, unknown>>(
    fields: readonly string[],
    body: T,
    choice: number,
    other?: Readonly<Record<string, unknown>>,
  ): T | undefined {
    if (this.missing(fields, body).length > 0) return undefined;
    const filled: Record<string, unknown> = { ...body };
    for (const field of fields) {
      const object = body[field] as Record<string, unknown> | undefined;
      if (object === undefined) continue;
      const before = (other?.[field] as Record<string, unknown> | undefined) ?? {};
      filled[field] = Object.fromEntries(
        Object.keys(object).map((key, index) => {
          const list = this.known.get(`${field}.${key}`)!;
          const changed = list.filter((value) => jsonText(value) !== jsonText(before[key]));
          const from = changed.length > 0 ? changed : list;
          return [key, from[(choice + index) % from.length]];
        }),
      );
    }
    return filled as T;
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

/** Why a must-accept probe with open fields was not sent. */
export function noOpenValues(missing: readonly string[]): string {
  return (
    `the target gave no value of ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ' and more' : ''} ` +
    '(their bounds are not shown; it refused every observe probe that sent them), so no must-accept probe may send them'
  );
}
