import type { TraceTable } from '../spec/traceability.ts';
import {
  CONDITIONAL_FIELD,
  DOCUMENT_SCOPE,
  ENVELOPE,
  FREE_STATE,
  NOT_SHOWN,
  PIPE_FIELD_REFLECTED,
  PIPE_FIELD_SENT_ON_CREATE,
  PIPE_FIELD_UPDATABLE,
  PIPE_SETTING,
  REQUEST_SECRET,
  RESPONSE_FIELD,
  SAMPLE_VALUES,
  STATE_FIELD,
  TIMESTAMP_FIELD,
} from './traces.ts';

/**
 * Every statement of the management document (../shared/seeds/000_ab28dd4dbab6f1bb.txt), by the id its place in the
 * document gives it (spec/traceability-statements.ts), with the rules that judge it, the tolerance of RULES.md that
 * says why nothing is judged, or why it cannot be tested. `test/traceability.test.ts` fails on a statement with no
 * entry here.
 */
export const MANAGEMENT_TRACE: TraceTable = Object.freeze({
  'management:intro.this-document-covers-the': {
    text:
      'This document covers the HTTP management API at {base_url}: creating, updating and reading settings ' +
      'of pipes; starting and stopping a service; creating API keys; reading usage costs; reading backup ' +
      'details.',
    ...DOCUMENT_SCOPE,
  },
  'management:intro.a-second-document-covers': {
    text: 'A second document covers the separate alerts API.',
    ...DOCUMENT_SCOPE,
  },
  'management:what.the-service-is-a': {
    text: 'The service is a JSON-over-HTTP management API scoped to organizations.',
    rules: ['response.content-type', 'envelope.shape'],
  },
  'management:what.an-organization-owns-services': {
    text: 'An organization owns services; a service owns pipes and backups.',
    rules: ['pipes.service-id', 'backups.identity'],
  },
  'management:what.a-pipe-moves-data': {
    text:
      'A pipe moves data from a source into a destination table of a service. Source kinds: message broker ' +
      '(`broker`), object storage (`objectStorage`), managed stream (`stream`), relational database ' +
      '(`relational`).',
    notTestable:
      'the data a pipe moves does not pass through the API: the harness sees only the pipe record, whose ' +
      'source kinds the schema checks',
  },
  'management:what.a-service-can-be': { text: 'A service can be started or stopped.', rules: ['service.command'] },
  'management:what.an-organization-can-create': {
    text: 'An organization can create API keys with roles and an optional IP allow list.',
    rules: ['keys.credentials-returned', 'keys.roles-minimum'],
    tolerance: 'ip-access-list-optional',
  },
  'management:what.an-organization-can-read': {
    text: 'An organization can read daily usage costs over a date range.',
    rules: ['usage.period-limit', 'usage.to-date-inclusive'],
  },
  'management:what.a-service-backup-can': { text: 'A service backup can be read by id.', rules: ['backups.identity'] },
  'management:what.every-successful-response-is': {
    text: 'Every successful response is wrapped in the envelope below.',
    ...ENVELOPE,
  },
  'management:resources.response-envelope.status': {
    text: 'status | number | HTTP status code; 200 on success',
    rules: ['envelope.shape', 'envelope.status-matches-http'],
  },
  'management:resources.response-envelope.requestid': {
    text: 'requestId | string (uuid, v4) | unique per request',
    rules: ['envelope.shape', 'envelope.request-id-v4', 'envelope.request-id-unique'],
    tolerance: 'uuid-case',
  },
  'management:resources.response-envelope.result': {
    text: 'result | object | the resource for the operation',
    ...ENVELOPE,
  },
  'management:resources.pipe.id': { text: 'id | string (uuid) | ', ...RESPONSE_FIELD },
  'management:resources.pipe.serviceid': {
    text: 'serviceId | string (uuid) | ',
    rules: ['response.schema', 'pipes.service-id'],
  },
  'management:resources.pipe.name': {
    text: 'name | string | ',
    rules: ['response.schema', 'pipes.reflects-request', 'pipes.update-applies'],
  },
  'management:resources.pipe.state': { text: 'state | string | see States', ...STATE_FIELD },
  'management:resources.pipe.scaling': { text: 'scaling | object | see Pipe scaling', ...PIPE_FIELD_REFLECTED },
  'management:resources.pipe.source': { text: 'source | object | see Pipe source', ...PIPE_FIELD_REFLECTED },
  'management:resources.pipe.destination': {
    text: 'destination | object | see Pipe destination',
    ...PIPE_FIELD_REFLECTED,
  },
  'management:resources.pipe.fieldmappings': {
    text:
      'fieldMappings | array of object | `sourceField` string, `destinationField` string. All destination ' +
      'columns must be included in the mappings.',
    rules: ['response.schema', 'pipes.reflects-request', 'pipes.update-applies', 'pipes.field-mappings-cover-columns'],
  },
  'management:resources.pipe.settings': {
    text: 'settings | object | see Pipe settings',
    rules: ['response.schema', 'pipes.reflects-request', 'pipes.update-applies', 'pipes.settings-keys'],
  },
  'management:resources.pipe.createdat': { text: 'createdAt | string | timestamp', ...TIMESTAMP_FIELD },
  'management:resources.pipe.updatedat': { text: 'updatedAt | string | timestamp', ...TIMESTAMP_FIELD },
  'management:resources.pipe-scaling.replicas': { text: 'replicas | number', ...PIPE_FIELD_SENT_ON_CREATE },
  'management:resources.pipe-scaling.concurrency': { text: 'concurrency | number', ...PIPE_FIELD_SENT_ON_CREATE },
  'management:resources.pipe-scaling.replicacpumillicores': {
    text: 'replicaCpuMillicores | number (CPU in millicores)',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-scaling.replicamemorygb': {
    text: 'replicaMemoryGb | number (gigabytes, may be fractional)',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.one-object-per-source': {
    text: 'One object per source kind; the kind used is the one present.',
    rules: ['pipes.reflects-request', 'request.valid-accepted'],
  },
  'management:resources.pipe-source.validatesamples-boolean-is-accepted': {
    text: '`validateSamples` (boolean) is accepted in request bodies under `source`.',
    rules: ['request.valid-accepted'],
    note: 'what the target does with it is not shown: only its acceptance is judged',
  },
  'management:resources.pipe-source.source-broker.brokers': {
    text: 'brokers | string | both | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-broker.topics': {
    text: 'topics | string | both | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-broker.consumergroup': {
    text: 'consumerGroup | string | both | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-broker.iamrole': {
    text: 'iamRole | string | both | role identifier',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-broker.offset': {
    text: 'offset | object | both | `timestamp` string, format `YYYY-MM-DDThh:mm`',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-broker.schemaregistry': {
    text:
      'schemaRegistry | object | both | `url` string, `caCertificate` string; `credentials` (`username`, ' +
      '`password`, strings) accepted in requests only',
    rules: ['response.schema', 'pipes.reflects-request', 'request.valid-accepted', 'secrets.absent'],
    tolerance: 'reflected-fields',
  },
  'management:resources.pipe-source.source-broker.cacertificate': {
    text: 'caCertificate | string | both | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-broker.reverseprivateendpointids': {
    text: 'reversePrivateEndpointIds | array of string | both | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-broker.credentials': {
    text: 'credentials | object | request only | `username`, `password` strings; never returned',
    ...REQUEST_SECRET,
  },
  'management:resources.pipe-source.source-objectstorage.url': {
    text: 'url | string | create and response | may contain wildcard patterns',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-objectstorage.delimiter': {
    text: 'delimiter | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-objectstorage.compression': {
    text: 'compression | string | create and response | a value of `auto` exists; the full set of values: not shown.',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-objectstorage.compression.not-shown': {
    text: 'compression | string | create and response | a value of `auto` exists; the full set of values: not shown.',
    ...SAMPLE_VALUES,
  },
  'management:resources.pipe-source.source-objectstorage.iscontinuous': {
    text: 'isContinuous | boolean | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-objectstorage.queueurl': {
    text: 'queueUrl | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-objectstorage.iamrole': {
    text: 'iamRole | string | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-objectstorage.connectionstring': {
    text: 'connectionString | string | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-objectstorage.path': {
    text: 'path | string | all | may contain wildcard patterns',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-objectstorage.containername': {
    text: 'containerName | string | all | container of the connection-string style source',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-objectstorage.accesskey': {
    text: 'accessKey | object | request only | `accessKeyId`, `secretKey` strings; never returned',
    ...REQUEST_SECRET,
  },
  'management:resources.pipe-source.source-stream.streamname': {
    text: 'streamName | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-stream.region': {
    text: 'region | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-stream.useenhancedfanout': {
    text: 'useEnhancedFanOut | boolean | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-stream.timestamp': {
    text: 'timestamp | number | create and response | unit: not shown.',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-stream.timestamp.not-shown': {
    text: 'timestamp | number | create and response | unit: not shown.',
    notTestable: 'the unit is not shown: the value is checked as a number and as sent, never as a time',
  },
  'management:resources.pipe-source.source-stream.iamrole': {
    text: 'iamRole | string | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-stream.accesskey': {
    text: 'accessKey | object | request only | `accessKeyId`, `secretKey` strings; never returned',
    ...REQUEST_SECRET,
  },
  'management:resources.pipe-source.source-relational.host': {
    text: 'host | string | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-relational.port': {
    text: 'port | number | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-relational.database': {
    text: 'database | string | all | ',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-relational.credentials': {
    text: 'credentials | object | request only | `username`, `password` strings; never returned',
    ...REQUEST_SECRET,
  },
  'management:resources.pipe-source.source-relational.settings': {
    text: 'settings | object | all | see below',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-source.source-relational.tablemappings': {
    text: 'tableMappings | array of table mapping | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-relational.tablemappingstoadd': {
    text: 'tableMappingsToAdd | array of table mapping | update only | ',
    rules: ['pipes.update-applies', 'pipes.state-consistent', 'request.valid-accepted'],
  },
  'management:resources.pipe-source.source-relational.tablemappingstoremove': {
    text:
      'tableMappingsToRemove | array of object | update only | `sourceSchemaName`, `sourceTable`, ' +
      '`targetTable` strings',
    rules: ['pipes.update-applies', 'pipes.state-consistent', 'request.valid-accepted'],
  },
  'management:resources.pipe-source.source-relational.table-mapping-sourceschemaname-string': {
    text:
      'Table mapping: `sourceSchemaName` string, `sourceTable` string, `targetTable` string, ' +
      '`excludedColumns` array of string, `useCustomSortingKey` boolean, `sortingKeys` array of string.',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-source.source-relational.source-relational-settings-syncintervalseconds': {
    text:
      '`source.relational.settings`: `syncIntervalSeconds` number, `pullBatchSize` number (both create, ' +
      'update, response); `publicationName` string, `replicationSlotName` string, `allowNullableColumns` ' +
      'boolean, `initialLoadParallelism` number, `snapshotNumRowsPerPartition` number, ' +
      '`snapshotNumberOfParallelTables` number, `enableFailoverSlots` boolean (create and response only).',
    ...PIPE_FIELD_UPDATABLE,
  },
  'management:resources.pipe-destination.database': {
    text: 'database | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-destination.table': {
    text: 'table | string | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-destination.managedtable': {
    text: 'managedTable | boolean | create and response | ',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-destination.tabledefinition': {
    text:
      'tableDefinition | object | create and response | `engine` object (`versionColumnId` string, ' +
      '`columnIds` array of string), `sortingKey` array of string, `partitionBy` string, `primaryKey` string',
    ...PIPE_FIELD_SENT_ON_CREATE,
  },
  'management:resources.pipe-destination.columns': {
    text: 'columns | array of object | all | `name` string, `type` string',
    rules: [
      'response.schema',
      'pipes.reflects-request',
      'pipes.update-applies',
      'request.valid-accepted',
      'pipes.field-mappings-cover-columns',
    ],
  },
  'management:resources.pipe-destination.roles': {
    text: 'roles | array of string | create only | ',
    rules: ['request.valid-accepted'],
    note: 'a create-only field that no response carries: only its acceptance is judged',
  },
  'management:resources.pipe-settings.all-keys-below-appear': {
    text: 'All keys below appear in create and update bodies, in the pipe response and in the settings response.',
    rules: ['pipes.settings-keys', 'pipes.reflects-request', 'pipes.update-applies'],
  },
  'management:resources.pipe-settings.streaming-max-insert-wait-ms': {
    text: 'streaming_max_insert_wait_ms | number | milliseconds',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.object-storage-concurrency': {
    text: 'object_storage_concurrency | number | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.object-storage-polling-interval-ms': {
    text: 'object_storage_polling_interval_ms | number | milliseconds',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.object-storage-max-insert-bytes': {
    text: 'object_storage_max_insert_bytes | number | bytes',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.object-storage-max-file-count': {
    text: 'object_storage_max_file_count | number | files',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.engine-max-threads': { text: 'engine_max_threads | number | ', ...PIPE_SETTING },
  'management:resources.pipe-settings.engine-max-insert-threads': {
    text: 'engine_max_insert_threads | number | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.engine-min-insert-block-size-bytes': {
    text: 'engine_min_insert_block_size_bytes | number | bytes',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.engine-max-download-threads': {
    text: 'engine_max_download_threads | number | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.engine-parallel-distributed-insert-select': {
    text: 'engine_parallel_distributed_insert_select | number | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.object-storage-use-cluster-function': {
    text: 'object_storage_use_cluster_function | boolean | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.engine-parallel-view-processing': {
    text: 'engine_parallel_view_processing | boolean | ',
    ...PIPE_SETTING,
  },
  'management:resources.pipe-settings.defaults-and-bounds-of': {
    text: 'Defaults and bounds of settings: not shown.',
    ...NOT_SHOWN,
  },
  'management:resources.service.id': {
    text: 'id | string (uuid) | ',
    rules: ['response.schema', 'service.result-identity'],
  },
  'management:resources.service.name': { text: 'name | string | ', ...RESPONSE_FIELD },
  'management:resources.service.engineversion': { text: 'engineVersion | string | ', ...RESPONSE_FIELD },
  'management:resources.service.endpoints': {
    text:
      'endpoints | array of object | `protocol` string (allowed values: not shown), `host` string, `port` ' +
      'number, `username` string',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.endpoints.not-shown': {
    text:
      'endpoints | array of object | `protocol` string (allowed values: not shown), `host` string, `port` ' +
      'number, `username` string',
    ...NOT_SHOWN,
  },
  'management:resources.service.mintotalmemorygb-maxtotalmemorygb': {
    text: 'minTotalMemoryGb, maxTotalMemoryGb | number | ',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.minreplicamemorygb-maxreplicamemorygb': {
    text: 'minReplicaMemoryGb, maxReplicaMemoryGb | number | ',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.numreplicas': { text: 'numReplicas | number | ', ...RESPONSE_FIELD },
  'management:resources.service.idlescaling': { text: 'idleScaling | boolean | ', ...RESPONSE_FIELD },
  'management:resources.service.idletimeoutminutes': { text: 'idleTimeoutMinutes | number | ', ...RESPONSE_FIELD },
  'management:resources.service.ipaccesslist': {
    text: 'ipAccessList | array of object | `source` string, `description` string',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.createdat': { text: 'createdAt | string (date-time) | ', ...TIMESTAMP_FIELD },
  'management:resources.service.encryptionkey': { text: 'encryptionKey | string | ', ...CONDITIONAL_FIELD },
  'management:resources.service.encryptionassumedroleidentifier': {
    text: 'encryptionAssumedRoleIdentifier | string | ',
    ...CONDITIONAL_FIELD,
  },
  'management:resources.service.iamrole': { text: 'iamRole | string | ', ...CONDITIONAL_FIELD },
  'management:resources.service.privateendpointids': {
    text: 'privateEndpointIds | array of string | ',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.availableprivateendpointids': {
    text: 'availablePrivateEndpointIds | array of string | ',
    ...RESPONSE_FIELD,
  },
  'management:resources.service.datawarehouseid': { text: 'dataWarehouseId | string | ', ...RESPONSE_FIELD },
  'management:resources.service.isprimary': { text: 'isPrimary | boolean | ', ...RESPONSE_FIELD },
  'management:resources.service.isreadonly': { text: 'isReadonly | boolean | ', ...RESPONSE_FIELD },
  'management:resources.service.byocid': { text: 'byocId | string | ', ...CONDITIONAL_FIELD },
  'management:resources.service.hastransparentdataencryption': {
    text: 'hasTransparentDataEncryption | boolean | ',
    ...CONDITIONAL_FIELD,
  },
  'management:resources.service.transparentdataencryptionkeyid': {
    text: 'transparentDataEncryptionKeyId | string | ',
    ...CONDITIONAL_FIELD,
  },
  'management:resources.service.encryptionroleid': { text: 'encryptionRoleId | string | ', ...CONDITIONAL_FIELD },
  'management:resources.key.request-body.name': {
    text: 'name | string | ',
    rules: ['request.valid-accepted', 'keys.credentials-returned'],
  },
  'management:resources.key.request-body.expireat': {
    text: 'expireAt | string (date-time, ISO 8601) or null | when absent, null or empty, the key never expires',
    rules: ['keys.never-expires', 'request.valid-accepted'],
  },
  'management:resources.key.request-body.state': {
    text: 'state | enum string | `enabled`, `disabled`; when omitted the key is `enabled`',
    rules: ['request.valid-accepted'],
    note: 'the key response carries no state, so "when omitted the key is enabled" is not judged',
  },
  'management:resources.key.request-body.hashdata': {
    text: 'hashData | object | `keyIdHash` string, `keyIdSuffix` string, `keySecretHash` string',
    rules: ['request.valid-accepted'],
    note: 'what the target does with it is not shown: only its acceptance is judged',
  },
  'management:resources.key.request-body.roles': {
    text: 'roles | array of enum string | values `admin`, `developer`, `query_endpoints`; at least 1 element',
    rules: ['keys.roles-enum', 'keys.roles-minimum', 'keys.credentials-returned'],
  },
  'management:resources.key.request-body.ipaccesslist': {
    text:
      'ipAccessList | array of object | `source` string, `description` string; addresses allowed to use the ' +
      'API with this key',
    rules: ['request.valid-accepted'],
    tolerance: 'ip-access-list-optional',
  },
  'management:resources.key.response-result.key': {
    text:
      'key | object | `id` string (uuid), `name` string, `roles` array, `keySuffix` string, `createdAt` ' +
      'date-time, `expireAt` date-time, `usedAt` date-time, `ipAccessList` array of object (`source`, ' +
      '`description`)',
    rules: ['response.schema', 'keys.credentials-returned'],
    tolerance: 'conditional-fields',
  },
  'management:resources.key.response-result.keyid': {
    text: 'keyId | string | the key identifier used for authentication',
    rules: ['response.schema', 'keys.credentials-returned'],
  },
  'management:resources.key.response-result.keysecret': {
    text: 'keySecret | string | the key secret used for authentication',
    rules: ['response.schema', 'keys.credentials-returned'],
  },
  'management:resources.usage-cost.grandtotalcredits': {
    text: 'grandTotalCredits | number | total over the period',
    rules: ['response.schema', 'usage.grand-total'],
    tolerance: 'numbers-rounding',
  },
  'management:resources.usage-cost.costs': {
    text: 'costs | object with the fields below | whether `costs` is a list of such entries: not shown.',
    rules: ['response.schema', 'usage.grand-total', 'usage.to-date-inclusive'],
    tolerance: 'costs-one-or-list',
  },
  'management:resources.usage-cost.costs.not-shown': {
    text: 'costs | object with the fields below | whether `costs` is a list of such entries: not shown.',
    tolerance: 'costs-one-or-list',
  },
  'management:resources.usage-cost.cost-entry-datawarehouseid-string': {
    text:
      'Cost entry: `dataWarehouseId` string (uuid), `serviceId` string (uuid), `date` string (format ' +
      '`YYYY-MM-DD`), `entityId` string (uuid), `entityName` string, `totalCredits` number, `locked` ' +
      'boolean, and `metrics` object with number fields `storageCredits`, `backupCredits`, `computeCredits`, ' +
      '`dataTransferCredits`, `initialLoadCredits`, `publicDataTransferCredits`, ' +
      '`interRegionTier1DataTransferCredits`, `interRegionTier2DataTransferCredits`, ' +
      '`interRegionTier3DataTransferCredits`, `interRegionTier4DataTransferCredits`.',
    rules: ['response.schema', 'usage.to-date-inclusive', 'usage.grand-total'],
  },
  'management:resources.backup.id': { text: 'id | string (uuid)', rules: ['response.schema', 'backups.identity'] },
  'management:resources.backup.serviceid': {
    text: 'serviceId | string',
    rules: ['response.schema', 'backups.identity'],
  },
  'management:resources.backup.startedat': { text: 'startedAt | string (date-time)', ...TIMESTAMP_FIELD },
  'management:resources.backup.finishedat': { text: 'finishedAt | string (date-time)', ...TIMESTAMP_FIELD },
  'management:resources.backup.sizeinbytes': { text: 'sizeInBytes | number', ...RESPONSE_FIELD },
  'management:resources.backup.durationinseconds': { text: 'durationInSeconds | number', ...RESPONSE_FIELD },
  'management:resources.backup.backupname': { text: 'backupName | string', ...RESPONSE_FIELD },
  'management:resources.backup.bucket': {
    text: 'bucket | object: `bucketPath` string, `iamRoleArn` string, `iamRoleSessionName` string',
    ...RESPONSE_FIELD,
  },
  'management:states.pipe.the-pipe-carries-a': { text: 'The pipe carries a string field `state`.', ...STATE_FIELD },
  'management:states.pipe.values-of-pipe-state': { text: 'Values of pipe state: not shown.', ...FREE_STATE },
  'management:states.pipe.pipe-transitions-not-shown': { text: 'Pipe transitions: not shown.', ...FREE_STATE },
  'management:states.service.the-state-operation-accepts': {
    text: 'The state operation accepts a `command` of `start` or `stop`.',
    ...FREE_STATE,
  },
  'management:states.service.service-states-and-the': {
    text: 'Service states and the effect of each command: not shown.',
    ...FREE_STATE,
  },
  'management:states.key.none-create-key-body-state-is-enabled-or-omitted': {
    text: '(none) | create key | body `state` is `enabled` or omitted | enabled | `keyId` and `keySecret` are returned',
    rules: ['keys.credentials-returned', 'request.valid-accepted'],
    note: 'the key response carries no state, so the state reached is not judged',
  },
  'management:states.key.none-create-key-body-state-is-disabled': {
    text: '(none) | create key | body `state` is `disabled` | disabled | `keyId` and `keySecret` are returned',
    rules: ['keys.credentials-returned', 'request.valid-accepted'],
    note: 'the key response carries no state, so the state reached is not judged',
  },
  'management:states.key.key-transitions-after-creation': {
    text: 'Key transitions after creation: not shown.',
    ...NOT_SHOWN,
  },
  'management:endpoints.all-paths-are-under': {
    text: 'All paths are under {base_url}.',
    notTestable:
      'it names the base URL that the run is pointed at (a setting): every probe is sent there, and a ' +
      'target that does not answer there is a configuration error (exit 2), not a verdict',
  },
  'management:endpoints.bodies-and-responses-are': {
    text: 'Bodies and responses are JSON (`Content-Type: application/json` on requests with a body).',
    rules: ['response.content-type', 'errors.client-not-server'],
  },
  'management:endpoints.path-parameters-organizationid-serviceid': {
    text: 'Path parameters `organizationId`, `serviceId`, `pipeId`, `backupId` are strings in uuid format.',
    rules: ['request.valid-accepted'],
    tolerance: 'uuid-case',
  },
  'management:endpoints.successful-responses-use-the': {
    text: 'Successful responses use the envelope above.',
    ...ENVELOPE,
  },
  'management:endpoints.post-v1-organizations-organizationid-services-serviceid-pipes': {
    text:
      'POST | /v1/organizations/{organizationId}/services/{serviceId}/pipes | body: `name`, `source`, ' +
      '`destination`, `fieldMappings`, `scaling`, `settings` (shapes above) | Pipe',
    rules: ['request.valid-accepted', 'response.schema', 'pipes.reflects-request', 'auth.required'],
  },
  'management:endpoints.patch-v1-organizations-organizationid-services-serviceid-pipes-pipeid': {
    text:
      'PATCH | /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId} | body: `name`, ' +
      '`source` (update-time fields only, see Resources), `destination` (only `columns`), `fieldMappings`, ' +
      '`settings` | Pipe',
    rules: ['request.valid-accepted', 'response.schema', 'pipes.update-applies', 'auth.required'],
  },
  'management:endpoints.get-v1-organizations-organizationid-services-serviceid-pipes-pipeid-settings': {
    text:
      'GET | /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings | none | Pipe ' +
      'settings object',
    rules: ['response.schema', 'pipes.settings-keys', 'auth.required'],
  },
  'management:endpoints.patch-v1-organizations-organizationid-services-serviceid-state': {
    text:
      'PATCH | /v1/organizations/{organizationId}/services/{serviceId}/state | body: `command` enum `start` ' +
      'or `stop` | Service',
    rules: ['service.command', 'service.result-identity', 'response.schema', 'auth.required'],
  },
  'management:endpoints.post-v1-organizations-organizationid-keys': {
    text: 'POST | /v1/organizations/{organizationId}/keys | body: Key request | Key response',
    rules: ['request.valid-accepted', 'response.schema', 'keys.credentials-returned', 'auth.required'],
  },
  'management:endpoints.get-v1-organizations-organizationid-usagecost': {
    text:
      'GET | /v1/organizations/{organizationId}/usageCost | query: `from_date` (date-time, required), ' +
      '`to_date` (date-time, required) | Usage cost',
    rules: ['usage.required-params', 'usage.period-limit', 'response.schema', 'auth.required'],
    tolerance: 'timestamps',
  },
  'management:endpoints.get-v1-organizations-organizationid-services-serviceid-backups-backupid': {
    text: 'GET | /v1/organizations/{organizationId}/services/{serviceId}/backups/{backupId} | none | Backup',
    rules: ['response.schema', 'backups.identity', 'auth.required'],
  },
  'management:endpoints.rules.update-time-source-fields': {
    text:
      'Update-time `source` fields per kind: broker: `iamRole`, `caCertificate`, ' +
      '`reversePrivateEndpointIds`, `credentials`. objectStorage: `iamRole`, `connectionString`, `path`, ' +
      '`containerName`, `accessKey`. stream: `iamRole`, `accessKey`. relational: `host`, `port`, `database`, ' +
      '`credentials`, `settings` (`syncIntervalSeconds`, `pullBatchSize`), `tableMappingsToAdd`, ' +
      '`tableMappingsToRemove`. Also `validateSamples`.',
    rules: ['pipes.update-applies', 'request.valid-accepted'],
  },
  'management:endpoints.rules.secrets-in-requests-credentials': {
    text: 'Secrets in requests (`credentials`, `accessKey`) are never present in responses.',
    rules: ['secrets.absent'],
  },
  'management:endpoints.rules.in-the-create-body': {
    text: 'In the create body, `fieldMappings` must cover all destination columns.',
    rules: ['pipes.field-mappings-cover-columns'],
  },
  'management:endpoints.rules.the-path-serviceid-of': {
    text: 'The path `serviceId` of the pipe operations identifies the service that owns the pipe.',
    rules: ['pipes.service-id'],
  },
  'management:endpoints.rules.for-usagecost-to-date': {
    text: 'For `usageCost`, `to_date` is inclusive.',
    rules: ['usage.to-date-inclusive'],
  },
  'management:endpoints.rules.which-request-fields-are': {
    text: 'Which request fields are required, and which pipe fields cannot change after creation: not shown.',
    tolerance: 'required-fields-not-shown',
  },
  'management:endpoints.rules.operations-other-than-those': {
    text: 'Operations other than those listed: not shown.',
    ...NOT_SHOWN,
  },
  'management:authentication.scheme-http-basic-in': {
    text:
      'Scheme: HTTP Basic in the `Authorization` header (`Authorization: Basic <encoded-value>`), required ' +
      'on every operation. The credentials are a key ID and a key secret; the secret is returned once in the ' +
      'create-key response and keys are obtained from the provider console.',
    rules: ['auth.required'],
    note: 'how keys are obtained (the provider console) is outside the API',
  },
  'management:authentication.a-key-has-roles': {
    text:
      'A key has roles `admin`, `developer`, `query_endpoints`, an optional expiry (`expireAt`), an optional ' +
      'IP allow list (`ipAccessList`), and a `usedAt` timestamp.',
    rules: ['keys.roles-enum', 'keys.never-expires'],
    tolerance: 'conditional-fields',
  },
  'management:authentication.which-role-may-call': {
    text: 'Which role may call which operation: not shown.',
    ...NOT_SHOWN,
  },
  'management:events.events-webhooks-and-notifications': {
    text: 'Events, webhooks and notifications of the management API: not shown.',
    ...NOT_SHOWN,
  },
  'management:errors.error-response-body-error': {
    text: 'Error response body, error codes and HTTP status codes other than 200: not shown.',
    tolerance: 'error-format',
  },
  'management:limits.usagecost': {
    text: 'usageCost | `to_date` must be at most 30 days after `from_date` (maximum queried period 31 days)',
    rules: ['usage.period-limit'],
  },
  'management:limits.create-key': {
    text: 'create key | `roles` has at least 1 element',
    rules: ['keys.roles-minimum'],
  },
  'management:limits.rate-limits-and-size': {
    text: 'Rate limits and size limits: not shown.',
    tolerance: 'rate-limit-429',
  },
  'management:versioning.every-path-begins-with': {
    text: 'Every path begins with `/v1`.',
    notTestable:
      'the paths of openapi/ carry the prefix, so every probe is sent under it; a target that served ' +
      'elsewhere would fail every rule, and none judges the prefix alone',
  },
  'management:versioning.the-pipe-operations-create': {
    text:
      'The pipe operations (create, update, get settings) are marked beta; the contract is stated to be ' +
      'stable and no breaking changes are expected.',
    notTestable: 'it speaks of the contract over time (beta, stable): one run sees one version',
  },
});
