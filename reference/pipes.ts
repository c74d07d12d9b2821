import { randomUUID } from 'node:crypto';
import { copyJson, isObject, type Json, type JsonObject } from './json.ts';
import {
  COLUMNS_SPEC,
  CREATE_PIPE_SPEC,
  CREATE_SOURCE_SPECS,
  DEFAULT_SCALING,
  DEFAULT_SETTINGS,
  DESTINATION_SPEC,
  FIELD_MAPPINGS_SPEC,
  SCALING_SPEC,
  SETTINGS_OBJECT_SPEC,
  UPDATE_PIPE_SPEC,
  UPDATE_SOURCE_SPECS,
} from './pipe-spec.ts';
import { problem, type Problem } from './problem.ts';
import type { Call, RouteOutcome, Route } from './route.ts';
import { checkPipe, checkService, findPipe, organizationOf } from './scope.ts';
import { SOURCE_KINDS, type PipeRecord, type SourceKind } from './store.ts';
import { check, project } from './validate.ts';

const PIPES_PATH = ['v1', 'organizations', ':organizationId', 'services', ':serviceId', 'pipes'] as const;

/** The response form of a pipe. */
export function presentPipe(pipe: PipeRecord): JsonObject {
  return copyJson({
    id: pipe.id,
    serviceId: pipe.serviceId,
    name: pipe.name,
    state: pipe.state,
    scaling: pipe.scaling,
    source: { [pipe.kind]: pipe.source },
    destination: pipe.destination,
    fieldMappings: pipe.fieldMappings,
    settings: pipe.settings,
    createdAt: pipe.createdAt,
    updatedAt: pipe.updatedAt,
  });
}

/** POST .../pipes: creates a pipe. */
export const createPipe: Route = {
  method: 'POST',
  path: PIPES_PATH,
  operation: 'createPipe',
  hasBody: true,
  check: (call) => {
    const scope = checkService(call, 'pipeService');
    if (scope.length > 0) return scope;
    const found = check(CREATE_PIPE_SPEC, call.body, '');
    if (!isObject(call.body)) return found;
    const source = call.body.source;
    if (isObject(source)) {
      const kinds = presentKinds(source);
      if (kinds.length !== 1) found.push(kindCountProblem(kinds));
      for (const kind of kinds) found.push(...check(CREATE_SOURCE_SPECS[kind], source[kind], `source.${kind}`));
    }
    const destination = call.body.destination;
    found.push(...coverage(isObject(destination) ? destination.columns : undefined, call.body.fieldMappings));
    return found;
  },
  apply: (call) => {
    const body = asObject(call.body);
    const source = asObject(body.source);
    const kind = presentKinds(source)[0] ?? 'broker';
    const now = call.now.toISOString();
    const pipe: PipeRecord = {
      id: randomUUID(),
      serviceId: organizationOf(call)!.serviceId,
      name: typeof body.name === 'string' ? body.name : '',
      state: 'Provisioning',
      scaling: { ...DEFAULT_SCALING, ...asObject(project(SCALING_SPEC, body.scaling ?? {})) },
      kind,
      source: asObject(project(CREATE_SOURCE_SPECS[kind], source[kind] ?? {})),
      destination: asObject(project(DESTINATION_SPEC, body.destination ?? {})),
      fieldMappings: asObjects(project(FIELD_MAPPINGS_SPEC, body.fieldMappings ?? [])),
      settings: { ...DEFAULT_SETTINGS, ...asObject(project(SETTINGS_OBJECT_SPEC, body.settings ?? {})) },
      createdAt: now,
      updatedAt: now,
    };
    if (call.persist) call.store.pipes.set(pipe.id, pipe);
    return { kind: 'ok', result: presentPipe(pipe) };
  },
};

/** PATCH .../pipes/{pipeId}: changes a pipe's update-time fields. */
export const updatePipe: Route = {
  method: 'PATCH',
  path: [...PIPES_PATH, ':pipeId'],
  operation: 'updatePipe',
  hasBody: true,
  check: (call) => {
    const scope = checkPipe(call);
    const pipe = findPipe(call);
    if (scope.length > 0 || pipe === undefined) return scope;
    const found = check(UPDATE_PIPE_SPEC, call.body, '');
    if (!isObject(call.body)) return found;
    const source = call.body.source;
    if (isObject(source)) {
      for (const kind of presentKinds(source)) {
        if (kind === pipe.kind) found.push(...check(UPDATE_SOURCE_SPECS[kind], source[kind], `source.${kind}`));
        else
          found.push(
            problem(
              `source.${kind}`,
              'source-kind',
              `source.${kind} does not match the pipe's source kind ${pipe.kind}`,
            ),
          );
      }
    }
    const destination = call.body.destination;
    const columns =
      isObject(destination) && destination.columns !== undefined ? destination.columns : pipe.destination.columns;
    found.push(...coverage(columns, call.body.fieldMappings ?? pipe.fieldMappings));
    return found;
  },
  apply: (call) => {
    const pipe = findPipe(call);
    if (pipe === undefined) return notFound(call);
    const body = asObject(call.body);
    const sent = asObject(asObject(body.source)[pipe.kind]);
    const destination = asObject(body.destination);
    const updated: PipeRecord = {
      ...pipe,
      name: typeof body.name === 'string' ? body.name : pipe.name,
      source: updateSource(pipe, sent),
      destination:
        destination.columns === undefined
          ? pipe.destination
          : { ...pipe.destination, columns: project(COLUMNS_SPEC, destination.columns) },
      fieldMappings:
        body.fieldMappings === undefined
          ? pipe.fieldMappings
          : asObjects(project(FIELD_MAPPINGS_SPEC, body.fieldMappings)),
      settings: { ...pipe.settings, ...asObject(project(SETTINGS_OBJECT_SPEC, body.settings ?? {})) },
      updatedAt: call.now.toISOString(),
    };
    if (call.persist) call.store.pipes.set(updated.id, updated);
    return { kind: 'ok', result: presentPipe(updated), previous: presentPipe(pipe) };
  },
};

/** GET .../pipes/{pipeId}/settings: reads a pipe's settings. */
export const getPipeSettings: Route = {
  method: 'GET',
  path: [...PIPES_PATH, ':pipeId', 'settings'],
  operation: 'getPipeSettings',
  hasBody: false,
  check: (call) => checkPipe(call),
  apply: (call) => {
    const pipe = findPipe(call);
    return pipe === undefined ? notFound(call) : { kind: 'ok', result: copyJson(pipe.settings) };
  },
};

function updateSource(pipe: PipeRecord, sent: JsonObject): JsonObject {
  const changes = asObject(project(UPDATE_SOURCE_SPECS[pipe.kind], sent));
  const source: JsonObject = { ...pipe.source, ...changes };
  if (pipe.kind !== 'relational') return source;
  if (changes.settings !== undefined)
    source.settings = { ...asObject(pipe.source.settings), ...asObject(changes.settings) };
  const toRemove = asObjects(sent.tableMappingsToRemove ?? []);
  const toAdd = asObjects(sent.tableMappingsToAdd ?? []);
  if (toRemove.length === 0 && toAdd.length === 0) return source;
  const kept = asObjects(pipe.source.tableMappings ?? []).filter(
    (mapping) => !toRemove.some((key) => sameTable(mapping, key)) && !toAdd.some((key) => sameTable(mapping, key)),
  );
  source.tableMappings = [...kept, ...copyJson(toAdd)];
  return source;
}

function sameTable(mapping: JsonObject, key: JsonObject): boolean {
  return (['sourceSchemaName', 'sourceTable', 'targetTable'] as const).every(
    (field) => key[field] === undefined || key[field] === mapping[field],
  );
}

function coverage(columns: Json | undefined, mappings: Json | undefined): Problem[] {
  if (!Array.isArray(columns) || !Array.isArray(mappings)) return [];
  const mapped = new Set(mappings.filter(isObject).map((mapping) => mapping.destinationField));
  return columns
    .filter(isObject)
    .filter((column) => typeof column.name === 'string' && !mapped.has(column.name))
    .map((column) =>
      problem('fieldMappings', 'unmapped-column', `fieldMappings must map destination column "${String(column.name)}"`),
    );
}

function presentKinds(source: JsonObject): SourceKind[] {
  return SOURCE_KINDS.filter((kind) => source[kind] !== undefined);
}

function kindCountProblem(kinds: readonly SourceKind[]): Problem {
  const names = SOURCE_KINDS.join(', ');
  return kinds.length === 0
    ? problem('source', 'source-kind', `source must contain one of ${names}`)
    : problem('source', 'source-kind', `source must contain exactly one of ${names}, not ${kinds.join(' and ')}`);
}

function notFound(call: Call): RouteOutcome {
  return {
    kind: 'rejected',
    problems: [problem('pipeId', 'not-found', `pipe ${call.params.pipeId} was not found`, 404)],
  };
}

function asObject(value: Json | undefined): JsonObject {
  return isObject(value) ? value : {};
}

function asObjects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
