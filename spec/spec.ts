import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { API_LIST, APIS, type ApiName } from '../apis/index.ts';
import type { Envelope } from '../apis/descriptor.ts';
import { HarnessError, isHarnessError } from '../core/errors.ts';
import { PROBE_CLASSES, type ProbeClass } from '../core/probe-types.ts';
import { PACKAGE_ROOT } from '../core/package-root.ts';

/** Which API a spec or an operation belongs to (the names of the descriptors in `apis/`). */
export type { ApiName } from '../apis/index.ts';

/** The spec files, one per API (its descriptor names it), in the package's `openapi/` folder. */
export const SPEC_FILES: Readonly<Record<ApiName, string>> = Object.freeze(
  Object.fromEntries(API_LIST.map((api) => [api.name, join(PACKAGE_ROOT, 'openapi', api.specFile)])) as Record<
    ApiName,
    string
  >,
);

/** The schema keyword that marks a property whose value is a secret: redacted by name wherever it appears. */
export const SECRET_KEYWORD = 'x-conformance-secret';
/**
 * Marks a request field whose values the documents leave open (bounds or allowed values not shown): on an object
 * schema, every property of it; on any other, that field.
 */
export const OPEN_KEYWORD = 'x-conformance-open';
/**
 * Marks a request string by the form the documents give it: `address` (a host, URL or IP range), `duration` (a number
 * and a unit letter, such as `5m`); the neighbourhood's probes send it values of another form. On a response string,
 * `time`: a time whose written form the documents do not pin down, compared with what was sent as the same instant.
 */
export const FORM_KEYWORD = 'x-conformance-form';

/** One operation of a spec, keyed by method and path template. */
export interface Operation {
  /** `METHOD /path/{param}`: the operation's name in every finding and report. */
  readonly key: string;
  readonly api: ApiName;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  /** What a request to it could do: `read` for a GET, `write` for any other, or the spec's `x-conformance-class`. */
  readonly klass: ProbeClass;
  readonly pathParams: readonly string[];
  /** The path parameters the spec gives the uuid format. */
  readonly uuidPathParams?: readonly string[];
  readonly queryParams: readonly OpenAPIV3_1.ParameterObject[];
  readonly requestSchema?: object;
  /** Response schemas by status code (`200`, `default`, ...). */
  readonly responseSchemas: Readonly<Record<string, object>>;
  /** Its API's envelope (from the API's descriptor). */
  readonly envelope: Envelope;
  /** Names of the request body's properties, at any depth, that the spec marks `writeOnly`: sent, never returned. */
  readonly writeOnlyFields: readonly string[];
  /**
   * The request body's fields whose values the documents leave open (`x-conformance-open`), as dotted paths to each
   * leaf (`settings.engine_max_threads`, `source.relational.port`), so that a must-accept probe sends there only
   * values this target answered or accepted in the run.
   */
  readonly openFields: readonly string[];
  /**
   * Where in the payload the request body comes back (`x-conformance-echo`, a JSON pointer; `''` for the whole
   * payload), when it does.
   */
  readonly echo?: string;
}

/** Both specs, dereferenced, their operations, and the fields their schemas mark. */
export interface Specs {
  readonly documents: Readonly<Record<ApiName, OpenAPIV3_1.Document>>;
  readonly operations: readonly Operation[];
  /**
   * Names of the properties, of any schema, marked `x-conformance-secret`: their values are redacted wherever they
   * appear.
   */
  readonly secretFields: readonly string[];
  /**
   * The secret fields of request bodies that are also `writeOnly`: every string under them is a secret sent, which no
   * response may carry back.
   */
  readonly requestOnlySecretFields: readonly string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Reads and dereferences both specs; a spec that cannot be read is a SPEC_INVALID error. `validate: true` also
 * validates them against the OpenAPI 3.1 schema with @readme/openapi-parser (about 0.3 s). Runs skip that: the
 * specs ship with the harness and `npm test` validates them.
 */
export async function loadSpecs(
  files: Readonly<Record<ApiName, string>> = SPEC_FILES,
  options: { validate?: boolean } = {},
): Promise<Specs> {
  const documents = {} as Record<ApiName, OpenAPIV3_1.Document>;
  for (const api of Object.keys(files) as ApiName[]) {
    documents[api] = await loadSpec(files[api], options.validate === true);
  }
  return specsOf(documents);
}

/**
 * Both specs and their operations, from the dereferenced documents (as `loadSpecs` reads them, or as the build prepared
 * them).
 */
export function specsOf(documents: Record<ApiName, OpenAPIV3_1.Document>): Specs {
  for (const api of Object.keys(documents) as ApiName[]) checkSecurity(api, documents[api]);
  const operations = (Object.keys(documents) as ApiName[]).flatMap((api) => operationsOf(api, documents[api]));
  const schemas = operations.flatMap((op) => [
    ...(op.requestSchema ? [op.requestSchema] : []),
    ...Object.values(op.responseSchemas),
  ]);
  const secret = (schema: SchemaObject): boolean => schema[SECRET_KEYWORD] === true;
  const requestSchemas = operations.flatMap((op) => (op.requestSchema ? [op.requestSchema] : []));
  return Object.freeze({
    documents: Object.freeze(documents),
    operations: Object.freeze(operations),
    secretFields: Object.freeze(markedProperties(schemas, secret)),
    requestOnlySecretFields: Object.freeze(
      markedProperties(requestSchemas, (schema) => secret(schema) && schema.writeOnly === true),
    ),
  });
}

type SchemaObject = Readonly<Record<string, unknown>>;

/** The names of the properties, at any depth of the schemas, whose schema passes `marked`, in the order first met. */
function markedProperties(schemas: readonly object[], marked: (schema: SchemaObject) => boolean): string[] {
  const names = new Set<string>();
  const seen = new Set<object>();
  const walk = (value: unknown): void => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    const properties = (value as SchemaObject).properties;
    if (properties && typeof properties === 'object') {
      for (const [name, schema] of Object.entries(properties))
        if (schema && typeof schema === 'object' && marked(schema as SchemaObject)) names.add(name);
    }
    Object.values(value).forEach(walk);
  };
  schemas.forEach(walk);
  return [...names];
}

/**
 * The dotted paths of the leaves of a request schema that `x-conformance-open` marks, through objects and the branches
 * of `oneOf`, `anyOf` and `allOf` (a source kind is a branch: `source.relational.port`); arrays are not entered.
 */
function openPaths(schema: SchemaObject): string[] {
  const paths = new Set<string>();
  const walk = (node: SchemaObject, path: string, open: boolean): void => {
    const marked = open || node[OPEN_KEYWORD] === true;
    for (const key of ['oneOf', 'anyOf', 'allOf'])
      for (const branch of (node[key] as SchemaObject[] | undefined) ?? []) walk(branch, path, marked);
    const properties = node.properties as Readonly<Record<string, SchemaObject>> | undefined;
    if (properties) {
      for (const [name, property] of Object.entries(properties))
        walk(property, path ? `${path}.${name}` : name, marked);
    } else if (marked && path !== '' && node.type !== 'array') paths.add(path);
  };
  walk(schema, '', false);
  return [...paths];
}

/**
 * The spec must require, at its top, the security scheme its API's descriptor names, as an HTTP scheme of the same
 * kind.
 */
function checkSecurity(api: ApiName, document: OpenAPIV3_1.Document): void {
  const { securityScheme, scheme } = APIS[api].auth;
  const declared = document.components?.securitySchemes?.[securityScheme] as
    | OpenAPIV3_1.SecuritySchemeObject
    | undefined;
  const required = (document.security ?? []).some((requirement) => securityScheme in requirement);
  if (!required || declared?.type !== 'http' || declared.scheme.toLowerCase() !== scheme) {
    throw new HarnessError(
      'SPEC_INVALID',
      `The ${api} spec must require the security scheme ${securityScheme} (HTTP ${scheme}) that ` +
        `apis/${api}.ts names, at its top level: fix the spec or the descriptor.`,
    );
  }
}

async function loadSpec(file: string, validating: boolean): Promise<OpenAPIV3_1.Document> {
  try {
    const { compileErrors, dereference, validate } = await import('@readme/openapi-parser');
    if (validating) {
      const result = await validate(file);
      if (!result.valid) {
        throw new HarnessError(
          'SPEC_INVALID',
          `The spec ${file} is not valid OpenAPI; fix it and run again.\n${compileErrors(result)}`,
        );
      }
    }
    return (await dereference(file)) as OpenAPIV3_1.Document;
  } catch (error) {
    if (isHarnessError(error)) throw error;
    throw new HarnessError('SPEC_INVALID', `The spec ${file} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function operationsOf(api: ApiName, document: OpenAPIV3_1.Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method] as OpenAPIV3_1.OperationObject | undefined;
      if (!op) continue;
      const params = [...(item?.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3_1.ParameterObject[];
      const body = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.['application/json']?.schema;
      const responseSchemas: Record<string, object> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const schema = (response as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema;
        if (schema) responseSchemas[status] = schema;
      }
      operations.push(
        Object.freeze({
          key: `${method.toUpperCase()} ${path}`,
          api,
          operationId: op.operationId ?? `${method} ${path}`,
          method: method.toUpperCase(),
          path,
          klass: classOf(method, op),
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          uuidPathParams: params
            .filter((p) => p.in === 'path' && (p.schema as { format?: unknown } | undefined)?.format === 'uuid')
            .map((p) => p.name),
          queryParams: params.filter((p) => p.in === 'query'),
          ...(body ? { requestSchema: body } : {}),
          responseSchemas,
          envelope: APIS[api].envelope,
          writeOnlyFields: Object.freeze(body ? markedProperties([body], (schema) => schema.writeOnly === true) : []),
          openFields: Object.freeze(body ? openPaths(body as SchemaObject) : []),
          ...echoOf(op),
        }),
      );
    }
  }
  return operations;
}

/** Where the operation's answer carries back its request body, from `x-conformance-echo`. */
function echoOf(op: OpenAPIV3_1.OperationObject): { echo?: string } {
  const marked = (op as { 'x-conformance-echo'?: unknown })['x-conformance-echo'];
  if (marked === undefined) return {};
  if (typeof marked !== 'string' || (marked !== '' && !marked.startsWith('/')))
    throw new HarnessError(
      'SPEC_INVALID',
      `${op.operationId}: x-conformance-echo must be a JSON pointer into the payload ('' or /field), not ` +
        `${JSON.stringify(marked)}.`,
    );
  return { echo: marked };
}

/** A GET is `read`, any other method `write`, unless the spec marks the operation with `x-conformance-class`. */
function classOf(method: string, op: OpenAPIV3_1.OperationObject): ProbeClass {
  const marked = (op as { 'x-conformance-class'?: unknown })['x-conformance-class'];
  if (marked !== undefined) {
    if (!(PROBE_CLASSES as readonly unknown[]).includes(marked))
      throw new HarnessError(
        'SPEC_INVALID',
        `${op.operationId}: x-conformance-class must be one of ${PROBE_CLASSES.join(', ')}, not ` +
          `${JSON.stringify(marked)}.`,
      );
    return marked as ProbeClass;
  }
  return method === 'get' ? 'read' : 'write';
}

/** Finds an operation by operationId; a missing one is a SPEC_INVALID error naming it. */
export function operationById(specs: Specs, operationId: string): Operation {
  const found = specs.operations.find((op) => op.operationId === operationId);
  if (!found)
    throw new HarnessError('SPEC_INVALID', `The specs have no operation ${operationId}; openapi/ must define it.`);
  return found;
}
