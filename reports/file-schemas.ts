import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { PACKAGE_ROOT } from '../core/package-root.ts';

// Ajv loads only when a file is validated, not for every run that writes findings.json.
const require = createRequire(import.meta.url);

/** The file formats the harness publishes as JSON Schemas (draft 2020-12) in the package's `schemas/` folder. */
export type FileFormat = 'findings' | 'baseline' | 'traceability' | 'manifest';

/** The `schemaVersion` that `findings.json` carries: raised by a change that breaks its readers. */
export const FINDINGS_SCHEMA_VERSION = 1;

/** The schema file of each published format. */
export const SCHEMA_FILES: Readonly<Record<FileFormat, string>> = Object.freeze({
  findings: join(PACKAGE_ROOT, 'schemas', 'findings.schema.json'),
  baseline: join(PACKAGE_ROOT, 'schemas', 'baseline.schema.json'),
  traceability: join(PACKAGE_ROOT, 'schemas', 'traceability.schema.json'),
  manifest: join(PACKAGE_ROOT, 'schemas', 'manifest.schema.json'),
});

/**
 * Checks parsed JSON against the schema of a format: undefined when it is valid, else one sentence naming the place and
 * the field at fault (see `schemaErrorMessage`); `name` says how to call a place of the file.
 */
export type FileValidator = (json: unknown, name?: (pointer: string) => string) => string | undefined;

/** Compiles the schema of a format once, for every file of that format a command reads. */
export function fileValidator(format: FileFormat): FileValidator {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv2020({ strict: true, allErrors: false, verbose: true });
  addFormats(ajv, ['date', 'date-time']);
  const schema = JSON.parse(readFileSync(SCHEMA_FILES[format], 'utf8')) as { $defs?: Definitions };
  const validate = ajv.compile(schema);
  return (json, name = jsonPath) =>
    validate(json) ? undefined : schemaErrorMessage(validate.errors![0]!, name, schema.$defs);
}

/** Validates one file's parsed JSON against the schema of its format (see FileValidator). */
export function schemaProblem(
  format: FileFormat,
  json: unknown,
  name: (pointer: string) => string = jsonPath,
): string | undefined {
  return fileValidator(format)(json, name);
}

/**
 * Turns an Ajv error (from a validator compiled with `verbose`) into the words of a harness error: where (`name` of the
 * object at fault, empty for the whole file), the field, and what was expected: `entries[0] has no "reason" (a
 * non-empty string)`, `results[2] has "outcome" "maybe", not one of "passed", "failed", "skipped"`, `is not an object`.
 */
export function schemaErrorMessage(
  error: ErrorObject,
  name: (pointer: string) => string = jsonPath,
  definitions: Definitions = {},
): string {
  const expectation = (schema: Record<string, unknown>): string => expected(schema, definitions);
  const at = (pointer: string, text: string): string => (name(pointer) ? `${name(pointer)} ${text}` : text);
  const pointer = error.instancePath;
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  if (error.keyword === 'required') {
    const field = (error.params as { missingProperty: string }).missingProperty;
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return at(pointer, `has no ${JSON.stringify(field)} (${expectation(properties[field] ?? {})})`);
  }
  if (error.keyword === 'additionalProperties') {
    return at(
      pointer,
      `has unknown field ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`,
    );
  }
  const field = unescapePointer(pointer.slice(pointer.lastIndexOf('/') + 1));
  if (pointer === '' || /^\d+$/.test(field)) {
    return at(pointer, `is not ${pointer === '' && schema.type === 'object' ? 'a JSON object' : expectation(schema)}`);
  }
  return at(
    pointer.slice(0, pointer.lastIndexOf('/')),
    `has ${JSON.stringify(field)} ${preview(error.data)}, not ${expectation(schema)}`,
  );
}

/** A JSON pointer as a JavaScript-like path: `/results/2/evidence` is `results[2].evidence`; the root is empty. */
export function jsonPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map(unescapePointer)
    .reduce((path, segment) => {
      if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return path ? `${path}.${segment}` : segment;
      return `${path}[${JSON.stringify(segment)}]`;
    }, '');
}

/** The `$defs` of a schema, which `#/$defs/name` references point into. */
type Definitions = Readonly<Record<string, Record<string, unknown>>>;

/** What a schema asks for, in words. */
function expected(schema: Record<string, unknown>, definitions: Definitions): string {
  const ref = typeof schema.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref !== undefined && definitions[ref]) return expected(definitions[ref], definitions);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.format === 'date') return 'a YYYY-MM-DD date';
  if (schema.format === 'date-time') return 'an ISO 8601 date and time';
  switch (schema.type) {
    case 'string':
      return schema.pattern === '\\S' ? 'a non-empty string' : 'a string';
    case 'integer':
      if (schema.minimum === undefined) return 'a whole number';
      return schema.maximum === undefined
        ? `a whole number, ${schema.minimum} or more`
        : `a whole number from ${schema.minimum} to ${schema.maximum}`;
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
