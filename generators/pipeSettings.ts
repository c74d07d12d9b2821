import * as fc from 'fast-check';
import { partialRecord } from './partialRecord.ts';

/** The pipe settings object of create and update bodies: the 12 documented keys, each optional. */
export type PipeSettings = {
  streaming_max_insert_wait_ms?: number;
  object_storage_concurrency?: number;
  object_storage_polling_interval_ms?: number;
  object_storage_max_insert_bytes?: number;
  object_storage_max_file_count?: number;
  engine_max_threads?: number;
  engine_max_insert_threads?: number;
  engine_min_insert_block_size_bytes?: number;
  engine_max_download_threads?: number;
  engine_parallel_distributed_insert_select?: number;
  object_storage_use_cluster_function?: boolean;
  engine_parallel_view_processing?: boolean;
};

const MODEL: { readonly [K in keyof Required<PipeSettings>]: fc.Arbitrary<Required<PipeSettings>[K]> } = Object.freeze({
  streaming_max_insert_wait_ms: fc.integer({ min: 1, max: 60_000 }),
  object_storage_concurrency: fc.integer({ min: 1, max: 64 }),
  object_storage_polling_interval_ms: fc.integer({ min: 1, max: 600_000 }),
  object_storage_max_insert_bytes: fc.integer({ min: 1, max: 2 ** 31 }),
  object_storage_max_file_count: fc.integer({ min: 1, max: 10_000 }),
  engine_max_threads: fc.integer({ min: 1, max: 64 }),
  engine_max_insert_threads: fc.integer({ min: 1, max: 64 }),
  engine_min_insert_block_size_bytes: fc.integer({ min: 1, max: 2 ** 30 }),
  engine_max_download_threads: fc.integer({ min: 1, max: 64 }),
  engine_parallel_distributed_insert_select: fc.integer({ min: 1, max: 2 }),
  object_storage_use_cluster_function: fc.boolean(),
  engine_parallel_view_processing: fc.boolean(),
});

/** Pipe settings with a subset of the 12 keys (at least `minKeys`; 12 gives all), positive integers and booleans. */
export function pipeSettings(constraints: { minKeys?: number } = {}): fc.Arbitrary<PipeSettings> {
  return partialRecord(MODEL, constraints) as fc.Arbitrary<PipeSettings>;
}
