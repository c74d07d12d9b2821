import * as fc from 'fast-check';
import { identifier } from './identifier.ts';

/** The `settings` object of a relational source: both update-time keys, and on create the seven create-only ones. */
export type RelationalSettings = {
  syncIntervalSeconds: number;
  pullBatchSize: number;
  publicationName?: string;
  replicationSlotName?: string;
  allowNullableColumns?: boolean;
  initialLoadParallelism?: number;
  snapshotNumRowsPerPartition?: number;
  snapshotNumberOfParallelTables?: number;
  enableFailoverSlots?: boolean;
};

const UPDATABLE = Object.freeze({
  syncIntervalSeconds: fc.integer({ min: 1, max: 3600 }),
  pullBatchSize: fc.integer({ min: 1, max: 100_000 }),
});

const CREATE_ONLY = Object.freeze({
  publicationName: identifier(),
  replicationSlotName: identifier(),
  allowNullableColumns: fc.boolean(),
  initialLoadParallelism: fc.integer({ min: 1, max: 16 }),
  snapshotNumRowsPerPartition: fc.integer({ min: 1_000, max: 1_000_000 }),
  snapshotNumberOfParallelTables: fc.integer({ min: 1, max: 16 }),
  enableFailoverSlots: fc.boolean(),
});

/**
 * Complete relational source settings: all nine keys on create, `syncIntervalSeconds` and `pullBatchSize` on update.
 */
export function relationalSettings(
  constraints: { operation?: 'create' | 'update' } = {},
): fc.Arbitrary<RelationalSettings> {
  const model = constraints.operation === 'update' ? UPDATABLE : { ...UPDATABLE, ...CREATE_ONLY };
  return fc.record(model, { noNullPrototype: true }) as fc.Arbitrary<RelationalSettings>;
}
