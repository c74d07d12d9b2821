import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from '../core/package-root.ts';
import type { Operation } from './spec.ts';

/**
 * OpenAPI keywords that are not JSON Schema, and the specs' own `x-conformance-secret`, `x-conformance-open` and
 * `x-conformance-form`:
 * declared to Ajv so that strict mode stays on.
 */
const OPENAPI_KEYWORDS = [
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'x-conformance-secret',
  'x-conformance-open',
  'x-conformance-form',
];

/** The validation code the build generates (Ajv standalone) for every schema of the shipped specs. */
export const PREPARED_VALIDATORS_FILE = join(PACKAGE_ROOT, 'dist', 'prepared', 'validators.cjs');

const require = createRequire(import.meta.url);

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

/** Validation functions generated ahead of time, by the fingerprint of the schema each one checks. */
export type PreparedValidators = Readonly<Record<string, ValidateFunction>>;

/**
 * Creates the Ajv 2020 instance every validator is compiled with: strict, all errors, formats, no coercion;
 * `standalone` keeps each function's source, for the build to write it out. Ajv loads only when this is called.
 */
export function createAjv(options: { standalone?: boolean } = {}): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    ...(options.standalone ? { code: { source: true } } : {}),
  });
  addFormats(ajv);
  for (const keyword of OPENAPI_KEYWORDS) ajv.addKeyword(keyword);
  return ajv;
}

/** The fingerprint of a schema: what a prepared validation function is filed under. */
export function schemaFingerprint(schema: object): string {
  return createHash('sha256').update(JSON.stringify(schema)).digest('hex');
}

/**
 * Every schema a run validates against, for the build to prepare: the top-level properties of each response (the
 * `result` or `data` that `response.schema` checks). A request body or a whole response is validated only by tests,
 * compiled on use: preparing them too tripled the code each run loads.
 */
export function validatedSchemas(operations: readonly Operation[]): object[] {
  return operations.flatMap((op) =>
    Object.values(op.responseSchemas).flatMap((schema) =>
      Object.values((schema as { properties?: Record<string, object> }).properties ?? {}),
    ),
  );
}

/**
 * The Ajv standalone code (CommonJS) of a validation function for every schema of `operations`, each filed under its
 * fingerprint.
 */
export function preparedValidatorsCode(operations: readonly Operation[]): {
  readonly code: string;
  readonly count: number;
} {
  const standaloneCode =
    require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js').default;
  const ajv = createAjv({ standalone: true });
  const exported: Record<string, string> = {};
  for (const schema of validatedSchemas(operations)) {
    const fingerprint = schemaFingerprint(schema);
    if (exported[fingerprint]) continue;
    ajv.addSchema(schema, fingerprint);
    exported[fingerprint] = fingerprint;
  }
  return { code: standaloneCode(ajv, exported), count: Object.keys(exported).length };
}

/**
 * The validation functions the build generated, or none when this installation has no build (the TypeScript source).
 */
export function loadPreparedValidators(file: string = PREPARED_VALIDATORS_FILE): PreparedValidators {
  return existsSync(file) ? (require(file) as PreparedValidators) : {};
}

/**
 * Builds validators for operations, each made once, on first use: the build's generated function for the schema when
 * there is one for exactly that schema, else compiled with `createAjv` (a spec changed since the build, or no build).
 */
export function createValidators(
  prepared: PreparedValidators = loadPreparedValidators(),
  compiler?: Ajv2020,
): Validators {
  const cache = new Map<string, Validator | undefined>();
  let ajv = compiler;
  const make = (schema: object): ValidateFunction => {
    const ready = prepared[schemaFingerprint(schema)];
    if (ready) return ready;
    ajv ??= createAjv();
    return ajv.compile(schema);
  };
  const made = (key: string, schema: object | undefined): Validator | undefined => {
    if (!cache.has(key)) cache.set(key, schema ? wrap(make(schema)) : undefined);
    return cache.get(key);
  };
  return {
    request: (op) => made(`${op.key} request`, op.requestSchema),
    response: (op, status, property) => {
      const schema = op.responseSchemas[status] as { properties?: Record<string, object> } | undefined;
      const target = property === undefined ? schema : schema?.properties?.[property];
      return made(`${op.key} ${status} ${property ?? ''}`, target);
    },
    query: (op, name) =>
      made(`${op.key} query ${name}`, op.queryParams.find((p) => p.name === name)?.schema as object | undefined),
  };
}

function wrap(validate: ValidateFunction): Validator {
  return (value) => (validate(value) ? [] : [...(validate.errors ?? [])]);
}
