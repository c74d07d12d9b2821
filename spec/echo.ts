import type { Operation } from './spec.ts';

/** The segments of a JSON pointer (`/a/b~1c` → `a`, `b/c`). */
function segments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a path of a JSON value, or undefined. */
function at(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );
}

/**
 * Whether a (dereferenced) JSON Schema declares a property at a path, through `properties`, `items` and its subschemas.
 */
function declares(schema: unknown, path: readonly string[]): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (path.length === 0) return true;
  const node = schema as Record<string, unknown>;
  const [head, ...rest] = path as [string, ...string[]];
  const properties = node.properties as Record<string, unknown> | undefined;
  if (properties && head in properties && declares(properties[head], rest)) return true;
  if (/^\d+$/.test(head) && node.items !== undefined && declares(node.items, rest)) return true;
  return (['allOf', 'anyOf', 'oneOf'] as const).some(
    (key) => Array.isArray(node[key]) && (node[key] as unknown[]).some((sub) => declares(sub, path)),
  );
}

/**
 * Whether a payload field (a JSON pointer into it) only carries back a request field that this request left out: a
 * field of the request schema, under the spec's `x-conformance-echo`, absent from the body sent. Such a field may be
 * absent from the answer (RULES.md); one the request sent, or one the target assigns, may not.
 */
export function echoOfUnsent(
  operation: Pick<Operation, 'echo' | 'requestSchema'>,
  requestBody: unknown,
  payloadPointer: string,
): boolean {
  if (operation.echo === undefined || operation.requestSchema === undefined) return false;
  const root = segments(operation.echo);
  const path = segments(payloadPointer);
  if (path.length <= root.length || root.some((key, i) => path[i] !== key)) return false;
  const requestPath = path.slice(root.length);
  return declares(operation.requestSchema, requestPath) && at(requestBody, requestPath) === undefined;
}
