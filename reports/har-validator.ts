import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv';

// Ajv and the HAR schemas load only when a HAR file is checked (a test, `conformance verify`).
const require = createRequire(import.meta.url);

/** Checks parsed JSON against the HAR 1.2 JSON Schema of `har-schema`: undefined when valid, else the first error. */
export type HarValidator = (json: unknown) => string | undefined;

/**
 * Compiles the HAR 1.2 schema (`har-schema`, JSON Schema draft-06) in strict mode: its three keywords that are not JSON
 * Schema (`optional`, `min`, `unique`, which say what HAR's prose says) are declared to Ajv as annotations.
 */
export function harValidator(): HarValidator {
  const { Ajv } = require('ajv') as typeof import('ajv');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const schemas = require('har-schema') as Record<string, object>;
  // strictTypes lints how a schema is written (har-schema leaves `type` implied beside `required`); it changes no
  // result.
  const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: false, validateSchema: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  addFormats(ajv, ['date-time', 'ipv4', 'ipv6', 'uri']);
  ajv.addKeyword({ keyword: 'optional', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'min', schemaType: 'number' });
  ajv.addKeyword({ keyword: 'unique', schemaType: 'boolean' });
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (!validate) throw new Error('har-schema has no har.json#');
  return (json) => (validate(json) ? undefined : describe(validate.errors?.[0]));
}

function describe(error: ErrorObject | undefined): string {
  return error ? `${error.instancePath || '/'} ${error.message ?? 'is not valid'}` : 'is not valid';
}
