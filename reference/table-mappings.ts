import { copyJson, isObject, type Json, type JsonObject } from './json.ts';
import type { Store } from './store.ts';

/**
 * Whether two table mappings (or a mapping and a removal) name the same table: schema, source table and target table.
 */
export function sameTableKey(a: Json | undefined, b: Json | undefined): boolean {
  return (
    isObject(a) &&
    isObject(b) &&
    (['sourceSchemaName', 'sourceTable', 'targetTable'] as const).every((key) => a[key] === b[key])
  );
}

/** An update answer, and the stored pipe `id`, with the table mappings `change` makes of the answer's. */
export function withTableMappings(
  store: Pick<Store, 'pipes'>,
  id: string | undefined,
  result: JsonObject,
  change: (list: Json[]) => Json[],
): JsonObject {
  const relational = isObject(result.source) ? result.source.relational : undefined;
  const list = isObject(relational) ? relational.tableMappings : undefined;
  if (!isObject(relational) || !Array.isArray(list)) return result;
  const tableMappings = change(list);
  const pipe = store.pipes.get(id?.toLowerCase() ?? '');
  if (pipe) store.pipes.set(pipe.id, { ...pipe, source: { ...pipe.source, tableMappings: copyJson(tableMappings) } });
  return { ...result, source: { ...(result.source as JsonObject), relational: { ...relational, tableMappings } } };
}
