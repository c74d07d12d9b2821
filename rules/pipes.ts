import { jsonText } from '../core/json-text.ts';
import { isSuccess } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import type { Operation } from '../spec/spec.ts';
import {
  asObject,
  certainBody,
  documentedProperties,
  payload,
  payloadPath,
  payloadSchema,
  probes,
  sameId,
} from './body.ts';
import { intentViolations, pairedParts } from './intent.ts';
import { pipeStateViolations, SEQUENCE_PART } from './sequence.ts';
import { omitKeys, subsetViolations } from './subset.ts';

/** What a pipe response must carry of a create or update body: all but the fields the spec marks `writeOnly`. */
function expectedPipe(body: Record<string, unknown>, operation: Operation): unknown {
  return omitKeys(documentedProperties(body, operation), new Set(operation.writeOnlyFields));
}

/** The `typeof` of a JSON value of each primitive JSON Schema type. */
const TYPEOF: Readonly<Record<string, string>> = Object.freeze({
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  string: 'string',
});

/**
 * The keys an operation's 200 payload (`payloadProperty`) must carry by the spec, each with the `typeof` of its
 * documented type, if primitive.
 */
export function requiredPayloadKeys(operation: Operation, payloadProperty: string): [string, string | undefined][] {
  const schema = asObject(asObject(asObject(operation.responseSchemas['200'])?.properties)?.[payloadProperty]);
  const properties = asObject(schema?.properties) ?? {};
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return required.map((key) => {
    const type = asObject(properties[key])?.type;
    return [key, typeof type === 'string' ? TYPEOF[type] : undefined];
  });
}

/** tableMappings after an update: the added ones present, the removed ones absent. */
function tableMappingViolations(
  body: Record<string, unknown>,
  result: Record<string, unknown>,
  path: string,
): Violation[] {
  const sent = asObject(asObject(body.source)?.relational);
  if (!sent) return [];
  const mappings = asObject(asObject(result.source)?.relational)?.tableMappings;
  const list = Array.isArray(mappings) ? mappings : [];
  const violations: Violation[] = [];
  for (const added of (sent.tableMappingsToAdd as unknown[] | undefined) ?? []) {
    if (!list.some((m) => subsetViolations(added, m, '').length === 0)) {
      violations.push({
        path: `${path}/source/relational/tableMappings`,
        expected: `to include the added mapping ${jsonText(added)}`,
        actual: mappings,
      });
    }
  }
  for (const removed of (sent.tableMappingsToRemove as unknown[] | undefined) ?? []) {
    if (list.some((m) => subsetViolations(removed, m, '').length === 0)) {
      violations.push({
        path: `${path}/source/relational/tableMappings`,
        expected: `not to include the removed mapping ${jsonText(removed)}`,
        actual: mappings,
      });
    }
  }
  return violations;
}

/** The paired parts of `pipes.field-mappings-cover-columns` on creates. */
const CREATE_PARTS = Object.freeze({ accepted: 'covering mappings accepted', rejected: 'a missed column rejected' });

/** The part of `pipes.field-mappings-cover-columns` on updates: one that leaves a column unmapped is rejected. */
export const UNMAPPED_UPDATE = 'an update leaving a column unmapped rejected';

/** Rules of the pipe operations. */
export const pipeRules: Rule[] = [
  {
    id: 'pipes.field-mappings-cover-columns',
    title: 'fieldMappings must cover every destination column',
    basis: 'stated',
    sentence:
      'A create whose `fieldMappings` miss a destination column is rejected; one that covers them all is accepted. ' +
      'The Pipe\'s own table says "all destination columns must be included in the mappings", so an update that ' +
      'would leave a column unmapped (new `destination.columns` without their mappings, or `fieldMappings` that ' +
      'drop one) is rejected too.',
    probedBy:
      'paired valid / invalid creates; updates of columns and of mappings that leave one column out (observe-safe: ' +
      "the pipe is the run's own)",
    parts: [
      ...pairedParts(CREATE_PARTS.accepted, CREATE_PARTS.rejected).parts!.map((part) => ({
        ...part,
        operations: ['createPipe'],
      })),
      { name: UNMAPPED_UPDATE, operations: ['updatePipe'] },
    ],
    partOf: (ex) =>
      ex.probe.part === UNMAPPED_UPDATE
        ? UNMAPPED_UPDATE
        : pairedParts(CREATE_PARTS.accepted, CREATE_PARTS.rejected).partOf!(ex),
    operations: ['createPipe', 'updatePipe'],
    applies: (ex) => probes(ex, 'pipes.field-mappings-cover-columns') && ex.response !== undefined,
    check: intentViolations,
  },
  {
    id: 'pipes.service-id',
    title: "A pipe's serviceId is the path serviceId",
    basis: 'stated',
    sentence: "A pipe's `serviceId` is the path `serviceId`.",
    probedBy: 'every pipe response',
    operations: ['createPipe', 'updatePipe'],
    applies: (ex) =>
      (ex.operationId === 'createPipe' || ex.operationId === 'updatePipe') &&
      isSuccess(ex) &&
      payload(ex)?.serviceId !== undefined,
    check: (ex) => {
      const actual = payload(ex)?.serviceId;
      return sameId(actual, ex.request.params.serviceId)
        ? []
        : [
            {
              path: `${payloadPath(ex)}/serviceId`,
              expected: `the path serviceId ${ex.request.params.serviceId}`,
              actual,
            },
          ];
    },
  },
  {
    id: 'pipes.reflects-request',
    title: 'A created pipe carries what was sent',
    basis: 'inferred',
    sentence:
      'The created pipe carries the name, source (response fields), destination, mappings, scaling and settings sent.',
    probedBy: 'every create',
    operations: ['createPipe'],
    applies: (ex) =>
      ex.operationId === 'createPipe' && isSuccess(ex) && payload(ex) !== undefined && certainBody(ex) !== undefined,
    check: (ex, ctx) =>
      subsetViolations(
        expectedPipe(certainBody(ex)!, ctx.operation),
        payload(ex),
        payloadPath(ex),
        payloadSchema(ctx.operation),
      ),
  },
  {
    id: 'pipes.update-applies',
    title: 'A pipe update is applied and persisted',
    basis: 'inferred',
    sentence:
      'A PATCH returns the pipe with every sent change applied, and the settings operation then shows the ' +
      'new settings.',
    probedBy: 'create, patch, read settings',
    operations: ['updatePipe', 'getPipeSettings'],
    applies: (ex) =>
      isSuccess(ex) &&
      payload(ex) !== undefined &&
      ((ex.operationId === 'updatePipe' && certainBody(ex) !== undefined) ||
        (ex.operationId === 'getPipeSettings' && ex.probe.expect?.settings !== undefined)),
    check: (ex, ctx) => {
      const result = payload(ex)!;
      if (ex.operationId === 'getPipeSettings')
        return subsetViolations(ex.probe.expect?.settings, result, payloadPath(ex), payloadSchema(ctx.operation));
      const body = certainBody(ex)!;
      return [
        ...subsetViolations(expectedPipe(body, ctx.operation), result, payloadPath(ex), payloadSchema(ctx.operation)),
        ...tableMappingViolations(body, result, payloadPath(ex)),
      ];
    },
  },
  {
    id: 'pipes.state-consistent',
    title: 'Every pipe reads as its own writes left it',
    basis: 'inferred',
    sentence:
      'Over any sequence of creates and updates, every pipe reads as its own writes left it: its settings ' +
      'read and its update answers show the latest value of each setting it was sent, the fields a PATCH ' +
      'did not send keep their values (`createdAt` never changes), every table mapping added is there and every ' +
      'one removed is gone (adding one the pipe already has may be refused with any 4xx, or keep one copy; ' +
      'removing one it does not have may be refused), and nothing written to another pipe shows on it.',
    probedBy:
      'model-based sequences: creates, updates and settings reads of several pipes, interleaved, each ' +
      'answer checked against a model of every write before it; a failure is shrunk to the shortest ' +
      'sequence',
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    parts: [{ name: SEQUENCE_PART }],
    partOf: () => SEQUENCE_PART,
    applies: (ex) => isSuccess(ex) && payload(ex) !== undefined && asObject(ex.probe.expect?.pipeState) !== undefined,
    check: (ex, ctx) => pipeStateViolations(ex, payloadSchema(ctx.operation)),
  },
  {
    id: 'pipes.settings-keys',
    title: 'Pipe settings carry every documented key',
    basis: 'stated',
    sentence: 'The settings response carries every documented settings key with its documented type.',
    probedBy: 'every settings read',
    operations: ['getPipeSettings'],
    applies: (ex) => ex.operationId === 'getPipeSettings' && isSuccess(ex) && payload(ex) !== undefined,
    check: (ex, ctx) => {
      const result = payload(ex)!;
      const path = payloadPath(ex);
      return requiredPayloadKeys(ctx.operation, path.slice(1))
        .filter(([key, type]) => !(key in result) || (type !== undefined && typeOf(result[key]) !== type))
        .map(([key, type]) => ({
          path: `${path}/${key}`,
          expected: type ? `present, of type ${type}` : 'present',
          actual: result[key],
        }));
    },
  },
];

/** The `typeof` of a JSON value, an integer past 2^53 (a bigint) being a number. */
const typeOf = (value: unknown): string => (typeof value === 'bigint' ? 'number' : typeof value);
