import type { JsonObject } from './json.ts';
import type { SourceKind } from './store.ts';
import { arr, bool, num, obj, required, requestOnly, str, type FieldSpec } from './validate.ts';

const credentials = obj({ username: str(), password: str() });
const accessKey = obj({ accessKeyId: str(), secretKey: str() });
const tableMapping = obj({
  sourceSchemaName: str(),
  sourceTable: str(),
  targetTable: str(),
  excludedColumns: arr(str()),
  useCustomSortingKey: bool(),
  sortingKeys: arr(str()),
});
const tableMappingKey = obj({ sourceSchemaName: str(), sourceTable: str(), targetTable: str() });
const column = obj({ name: str(), type: str() });

/** The destination columns, each with a name and a type. */
export const COLUMNS_SPEC: FieldSpec = arr(column);
const fieldMapping = obj({ sourceField: required(str()), destinationField: required(str()) });

/** The twelve documented settings keys and their types. */
export const SETTINGS_SPEC: Readonly<Record<string, FieldSpec>> = Object.freeze({
  streaming_max_insert_wait_ms: num(),
  object_storage_concurrency: num(),
  object_storage_polling_interval_ms: num(),
  object_storage_max_insert_bytes: num(),
  object_storage_max_file_count: num(),
  engine_max_threads: num(),
  engine_max_insert_threads: num(),
  engine_min_insert_block_size_bytes: num(),
  engine_max_download_threads: num(),
  engine_parallel_distributed_insert_select: num(),
  object_storage_use_cluster_function: bool(),
  engine_parallel_view_processing: bool(),
});

/** The settings a pipe has when its create body does not set them. */
export const DEFAULT_SETTINGS: Readonly<JsonObject> = Object.freeze({
  streaming_max_insert_wait_ms: 1000,
  object_storage_concurrency: 4,
  object_storage_polling_interval_ms: 30_000,
  object_storage_max_insert_bytes: 104_857_600,
  object_storage_max_file_count: 1000,
  engine_max_threads: 8,
  engine_max_insert_threads: 4,
  engine_min_insert_block_size_bytes: 1_048_576,
  engine_max_download_threads: 4,
  engine_parallel_distributed_insert_select: 0,
  object_storage_use_cluster_function: false,
  engine_parallel_view_processing: false,
});

/** The scaling a pipe has when its create body does not set it. */
export const DEFAULT_SCALING: Readonly<JsonObject> = Object.freeze({
  replicas: 1,
  concurrency: 1,
  replicaCpuMillicores: 500,
  replicaMemoryGb: 2,
});

/** Create-time fields of each source kind; request-only fields are the secrets. */
export const CREATE_SOURCE_SPECS: Readonly<Record<SourceKind, FieldSpec>> = Object.freeze({
  broker: obj({
    brokers: str(),
    topics: str(),
    consumerGroup: str(),
    iamRole: str(),
    offset: obj({ timestamp: str() }),
    schemaRegistry: obj({ url: str(), caCertificate: str(), credentials: requestOnly(credentials) }),
    caCertificate: str(),
    reversePrivateEndpointIds: arr(str()),
    credentials: requestOnly(credentials),
  }),
  objectStorage: obj({
    url: str(),
    delimiter: str(),
    compression: str(),
    isContinuous: bool(),
    queueUrl: str(),
    iamRole: str(),
    connectionString: str(),
    path: str(),
    containerName: str(),
    accessKey: requestOnly(accessKey),
  }),
  stream: obj({
    streamName: str(),
    region: str(),
    useEnhancedFanOut: bool(),
    timestamp: num(),
    iamRole: str(),
    accessKey: requestOnly(accessKey),
  }),
  relational: obj({
    host: str(),
    port: num(),
    database: str(),
    credentials: requestOnly(credentials),
    settings: obj({
      syncIntervalSeconds: num(),
      pullBatchSize: num(),
      publicationName: str(),
      replicationSlotName: str(),
      allowNullableColumns: bool(),
      initialLoadParallelism: num(),
      snapshotNumRowsPerPartition: num(),
      snapshotNumberOfParallelTables: num(),
      enableFailoverSlots: bool(),
    }),
    tableMappings: arr(tableMapping),
  }),
});

/** Update-time fields of each source kind (rule 1 of the management document); others are refused. */
export const UPDATE_SOURCE_SPECS: Readonly<Record<SourceKind, FieldSpec>> = Object.freeze({
  broker: obj(
    {
      iamRole: str(),
      caCertificate: str(),
      reversePrivateEndpointIds: arr(str()),
      credentials: requestOnly(credentials),
    },
    true,
  ),
  objectStorage: obj(
    { iamRole: str(), connectionString: str(), path: str(), containerName: str(), accessKey: requestOnly(accessKey) },
    true,
  ),
  stream: obj({ iamRole: str(), accessKey: requestOnly(accessKey) }, true),
  relational: obj(
    {
      host: str(),
      port: num(),
      database: str(),
      credentials: requestOnly(credentials),
      settings: obj({ syncIntervalSeconds: num(), pullBatchSize: num() }, true),
      tableMappingsToAdd: requestOnly(arr(tableMapping)),
      tableMappingsToRemove: requestOnly(arr(tableMappingKey)),
    },
    true,
  ),
});

/** The create-time destination; `roles` is accepted and never returned. */
export const DESTINATION_SPEC: FieldSpec = obj({
  database: required(str()),
  table: required(str()),
  managedTable: bool(),
  tableDefinition: obj({
    engine: obj({ versionColumnId: str(), columnIds: arr(str()) }),
    sortingKey: arr(str()),
    partitionBy: str(),
    primaryKey: str(),
  }),
  columns: required(COLUMNS_SPEC),
  roles: requestOnly(arr(str())),
});

/** The field mappings of create and update bodies. */
export const FIELD_MAPPINGS_SPEC: FieldSpec = arr(fieldMapping);

/** The pipe scaling object. */
export const SCALING_SPEC: FieldSpec = obj({
  replicas: num(),
  concurrency: num(),
  replicaCpuMillicores: num(),
  replicaMemoryGb: num(),
});

/** The settings object, all keys optional in requests. */
export const SETTINGS_OBJECT_SPEC: FieldSpec = obj(SETTINGS_SPEC);

/** The create body, the source kinds aside (they are checked one by one). */
export const CREATE_PIPE_SPEC: FieldSpec = obj({
  name: required(str()),
  source: required(obj({ validateSamples: requestOnly(bool()) })),
  destination: required(DESTINATION_SPEC),
  fieldMappings: required(FIELD_MAPPINGS_SPEC),
  scaling: SCALING_SPEC,
  settings: SETTINGS_OBJECT_SPEC,
});

/** The update body, the source kinds aside; fields other than these are refused. */
export const UPDATE_PIPE_SPEC: FieldSpec = obj(
  {
    name: str(),
    source: obj({ validateSamples: requestOnly(bool()) }),
    destination: obj({ columns: COLUMNS_SPEC }, true),
    fieldMappings: FIELD_MAPPINGS_SPEC,
    settings: SETTINGS_OBJECT_SPEC,
  },
  true,
);
