import * as fc from 'fast-check';
import { lazy } from './lazy.ts';
import { accessKey } from './accessKey.ts';
import { caCertificate } from './caCertificate.ts';
import { credentials } from './credentials.ts';
import { identifier } from './identifier.ts';
import { iamRole } from './iamRole.ts';
import type { PipeKind } from './pipeKind.ts';
import { relationalSettings } from './relationalSettings.ts';
import { tableMappings, type TableMapping } from './tableMappings.ts';

/** A pipe update `source`: one kind with its update-time fields, and `validateSamples`. */
export type PipeSourceUpdate = { [kind in PipeKind]?: Record<string, unknown> } & { validateSamples?: boolean };

type Removal = Pick<TableMapping, 'sourceSchemaName' | 'sourceTable' | 'targetTable'>;

// Built once: fast-check works out the interesting slices of each string arbitrary, which costs milliseconds.
const PRIVATE_ENDPOINT_ID = lazy(() => fc.stringMatching(/^vpce-[0-9a-f]{17}$/));
const removal = (m: Removal): Removal => ({
  sourceSchemaName: m.sourceSchemaName,
  sourceTable: m.sourceTable,
  targetTable: m.targetTable,
});
const tableKey = (m: Removal): string => `${m.sourceSchemaName}.${m.sourceTable}`;

function relationalUpdate(existing: readonly Removal[]): fc.Arbitrary<Record<string, unknown>> {
  const toRemove =
    existing.length > 0
      ? fc.shuffledSubarray([...existing], { minLength: 1 }).map((list) => list.map(removal))
      : tableMappings({ minLength: 1, maxLength: 2 }).map((list) => list.map(removal));
  return fc
    .record(
      {
        host: identifier({ maxLength: 12 }).map((name) => `${name}.db.example.com`),
        port: fc.oneof(fc.constantFrom(5432, 3306), fc.integer({ min: 1024, max: 65535 })),
        database: identifier(),
        credentials: credentials(),
        settings: relationalSettings({ operation: 'update' }),
        tableMappingsToAdd: tableMappings({ minLength: 1, maxLength: 2, avoid: existing.map(tableKey) }),
        tableMappingsToRemove: toRemove,
      },
      { noNullPrototype: true },
    )
    .filter(({ tableMappingsToAdd, tableMappingsToRemove }) => {
      const removed = new Set(tableMappingsToRemove.map(tableKey));
      return !tableMappingsToAdd.some((m) => removed.has(tableKey(m)));
    });
}

const MODELS: Readonly<Record<Exclude<PipeKind, 'relational'>, () => Record<string, fc.Arbitrary<unknown>>>> =
  Object.freeze({
    broker: () => ({
      iamRole: iamRole(),
      caCertificate: caCertificate(),
      reversePrivateEndpointIds: fc.uniqueArray(PRIVATE_ENDPOINT_ID, { minLength: 1, maxLength: 2 }),
      credentials: credentials(),
    }),
    objectStorage: () => ({
      iamRole: iamRole(),
      connectionString: identifier({ maxLength: 12 }).map(
        (account) => `DefaultEndpointsProtocol=https;AccountName=${account};EndpointSuffix=core.windows.net`,
      ),
      path: identifier({ maxLength: 10 }).map((prefix) => `${prefix}/*.json`),
      containerName: identifier(),
      accessKey: accessKey(),
    }),
    stream: () => ({ iamRole: iamRole(), accessKey: accessKey() }),
  });

/**
 * Complete pipe update sources of one kind: every update-time field of that kind (rule 1) and `validateSamples`, with
 * secrets from `secretValue()`; relational removals are drawn from `tableMappings` (the pipe's own) when given, else
 * invented.
 */
export function pipeSourceUpdate(constraints: {
  kind: PipeKind;
  tableMappings?: readonly Removal[];
}): fc.Arbitrary<PipeSourceUpdate> {
  const { kind } = constraints;
  const fields =
    kind === 'relational'
      ? relationalUpdate(constraints.tableMappings ?? [])
      : fc.record(MODELS[kind](), { noNullPrototype: true });
  return fc
    .record({ fields, validateSamples: fc.boolean() })
    .map(({ fields: value, validateSamples }) => ({ [kind]: value, validateSamples }));
}
