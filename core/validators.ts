import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Operation } from './spec.ts';

/** OpenAPI keywords that are not JSON Schema, and the specs' own `x-conformance-secret`: declared to Ajv so that strict mode stays on. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'x-conformance-secret'];

/** A compiled schema check: the errors for a value, empty when it is valid. */
export type Validator = (value: unknown) => readonly ErrorObject[];

/** Validators of every operation, compiled once each on first use. */
export interface Validators {
  /** The request body schema of an operation, or undefined when it takes no body. */
  request(operation: Operation): Validator | undefined;
  /** A response schema, or one of its top-level properties (`result`, `data`), for a status code. */
  response(operation: Operation, status: string, property?: string): Validator | undefined;
  /** A query parameter's schema. */
  query(operation: Operation, name: string): Validator | undefined;
}

/** Creates the Ajv 2020 instance every validator is compiled with: strict, all errors, formats, no coercion. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, coerceTypes: false, useDefaults: false, removeAdditional: false });
  addFormats.default(ajv);
  for (const keyword of OPENAPI_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/** Builds lazily compiled, cached validators for operations (each compiled once, on first use). */
export function createValidators(ajv: Ajv2020 = createAjv()): Validators {
  const cache = new Map<string, Validator | undefined>();
  const compiled = (key: string, schema: object | undefined): Validator | undefined => {
    if (!cache.has(key)) cache.set(key, schema ? wrap(ajv.compile(schema)) : undefined);
    return cache.get(key);
  };
  return {
    request: (op) => compiled(`${op.key} request`, op.requestSchema),
    response: (op, status, property) => {
      const schema = op.responseSchemas[status] as { properties?: Record<string, object> } | undefined;
      const target = property === undefined ? schema : schema?.properties?.[property];
      return compiled(`${op.key} ${status} ${property ?? ''}`, target);
    },
    query: (op, name) => compiled(`${op.key} query ${name}`, op.queryParams.find((p) => p.name === name)?.schema as object | undefined),
  };
}

function wrap(validate: ValidateFunction): Validator {
  return (value) => (validate(value) ? [] : [...(validate.errors ?? [])]);
}
