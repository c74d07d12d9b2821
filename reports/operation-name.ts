/**
 * An operation as every report names it: its operationId and its `METHOD /path` key, or the key alone when the id is
 * unknown.
 */
export function operationName(item: { readonly operation: string; readonly operationId?: string }): string {
  return item.operationId ? `${item.operationId} (${item.operation})` : item.operation;
}
