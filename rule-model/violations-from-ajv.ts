import type { ErrorObject } from 'ajv';
import type { Violation } from './rule.ts';

/** Turns Ajv errors into violations, with paths prefixed by where the validated value sits in the body. */
export function violationsFromAjv(errors: readonly ErrorObject[], basePath: string, value: unknown): Violation[] {
  return errors.map((error) => {
    const missing = error.keyword === 'required';
    return {
      path: `${basePath}${missing ? missingPointer(error) : error.instancePath}`,
      expected: expectation(error),
      actual: missing ? undefined : pointer(value, error.instancePath),
    };
  });
}

/** The JSON pointer of the property a `required` error says is missing, relative to the validated value. */
export function missingPointer(error: ErrorObject): string {
  const name = String((error.params as { missingProperty?: unknown }).missingProperty ?? '');
  return `${error.instancePath}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function expectation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'present (required by the schema)';
    case 'type':
      return `of type ${String(params.type)}`;
    case 'format':
      return `a string of format ${String(params.format)}`;
    case 'enum':
      return `one of ${JSON.stringify(params.allowedValues)}`;
    default:
      return `${error.message ?? error.keyword} (schema ${error.schemaPath})`;
  }
}

function pointer(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}
