import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { HarnessError, isHarnessError } from './errors.ts';
import { PROBE_CLASSES, type ProbeClass } from './probe.ts';
import { PACKAGE_ROOT } from './package-root.ts';

/** Which of the two APIs a spec or an operation belongs to. */
export type ApiName = 'management' | 'alerts';

/** The spec files, one per API, in the package's `openapi/` folder. */
export const SPEC_FILES: Readonly<Record<ApiName, string>> = Object.freeze({
  management: join(PACKAGE_ROOT, 'openapi', 'management.yaml'),
  alerts: join(PACKAGE_ROOT, 'openapi', 'alerts.yaml'),
});

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
  readonly queryParams: readonly OpenAPIV3_1.ParameterObject[];
  readonly requestSchema?: object;
  /** Response schemas by status code (`200`, `default`, ...). */
  readonly responseSchemas: Readonly<Record<string, object>>;
}

/** Both specs, dereferenced, and their operations. */
export interface Specs {
  readonly documents: Readonly<Record<ApiName, OpenAPIV3_1.Document>>;
  readonly operations: readonly Operation[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/**
 * Reads and dereferences both specs; a spec that cannot be read is a SPEC_INVALID error. `validate: true` also
 * validates them against the OpenAPI 3.1 schema with @readme/openapi-parser (about 0.3 s). Runs skip that: the
 * specs ship with the harness and `npm test` validates them.
 */
export async function loadSpecs(files: Readonly<Record<ApiName, string>> = SPEC_FILES, options: { validate?: boolean } = {}): Promise<Specs> {
  const documents = {} as Record<ApiName, OpenAPIV3_1.Document>;
  for (const api of Object.keys(files) as ApiName[]) {
    documents[api] = await loadSpec(files[api], options.validate === true);
  }
  return specsOf(documents);
}

/** Both specs and their operations, from the dereferenced documents (as `loadSpecs` reads them, or as the build prepared them). */
export function specsOf(documents: Record<ApiName, OpenAPIV3_1.Document>): Specs {
  const operations = (Object.keys(documents) as ApiName[]).flatMap((api) => operationsOf(api, documents[api]));
  return Object.freeze({ documents: Object.freeze(documents), operations: Object.freeze(operations) });
}

async function loadSpec(file: string, validating: boolean): Promise<OpenAPIV3_1.Document> {
  try {
    const { compileErrors, dereference, validate } = await import('@readme/openapi-parser');
    if (validating) {
      const result = await validate(file);
      if (!result.valid) {
        throw new HarnessError('SPEC_INVALID', `The spec ${file} is not valid OpenAPI; fix it and run again.\n${compileErrors(result)}`);
      }
    }
    return (await dereference(file)) as OpenAPIV3_1.Document;
  } catch (error) {
    if (isHarnessError(error)) throw error;
    throw new HarnessError('SPEC_INVALID', `The spec ${file} cannot be read: ${(error as Error).message}`, { cause: error });
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
          queryParams: params.filter((p) => p.in === 'query'),
          ...(body ? { requestSchema: body } : {}),
          responseSchemas,
        }),
      );
    }
  }
  return operations;
}

/** A GET is `read`, any other method `write`, unless the spec marks the operation with `x-conformance-class`. */
function classOf(method: string, op: OpenAPIV3_1.OperationObject): ProbeClass {
  const marked = (op as { 'x-conformance-class'?: unknown })['x-conformance-class'];
  if (marked !== undefined) {
    if (!(PROBE_CLASSES as readonly unknown[]).includes(marked))
      throw new HarnessError('SPEC_INVALID', `${op.operationId}: x-conformance-class must be one of ${PROBE_CLASSES.join(', ')}, not ${JSON.stringify(marked)}.`);
    return marked as ProbeClass;
  }
  return method === 'get' ? 'read' : 'write';
}

/** Finds an operation by operationId; a missing one is a SPEC_INVALID error naming it. */
export function operationById(specs: Specs, operationId: string): Operation {
  const found = specs.operations.find((op) => op.operationId === operationId);
  if (!found) throw new HarnessError('SPEC_INVALID', `The specs have no operation ${operationId}; openapi/ must define it.`);
  return found;
}
