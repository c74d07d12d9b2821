import { describe, it, expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { validate, dereference, compileErrors } from '@readme/openapi-parser';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_LIST } from '../apis/index.ts';
import { loadSpecs, operationById, SPEC_FILES } from '../spec/spec.ts';
import { createAjv } from '../spec/validators.ts';
import { requiredPayloadKeys } from '../rules/pipes.ts';

const specPath = (name: string): string => fileURLToPath(new URL(`../openapi/${name}.yaml`, import.meta.url));

type Json = Record<string, any>;

/**
 * The Ajv instance the harness compiles its validators with (strict, the OpenAPI keywords and `x-conformance-secret`
 * declared).
 */
function makeAjv(): Ajv2020 {
  return createAjv();
}

interface Collected {
  label: string;
  schema: Json;
}

function collectSchemas(api: Json): Collected[] {
  const out: Collected[] = [];
  for (const [path, item] of Object.entries<Json>(api.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      for (const p of params) out.push({ label: `${op.operationId} param ${p.name}`, schema: p.schema });
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) out.push({ label: `${op.operationId} request body`, schema: body });
      const ok = op.responses?.['200']?.content?.['application/json']?.schema;
      if (ok) out.push({ label: `${op.operationId} 200 response`, schema: ok });
      if (!body && method !== 'get') throw new Error(`${path} ${method}: no request body`);
    }
  }
  return out;
}

/** The operations these tests look at by name; a missing one fails the test that reads it. */
type Probed =
  | 'createPipe'
  | 'updatePipe'
  | 'getPipeSettings'
  | 'changeServiceState'
  | 'createKey'
  | 'getUsageCost'
  | 'updateAlert'
  | 'listAlerts';

async function load(name: string) {
  const api = (await dereference(specPath(name))) as unknown as Json;
  const ajv = makeAjv();
  const byOp: Record<string, { body?: ValidateFunction; ok?: ValidateFunction; result?: ValidateFunction }> = {};
  for (const [, item] of Object.entries<Json>(api.paths)) {
    for (const op of Object.values<Json>(item)) {
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      const entry: (typeof byOp)[string] = {};
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) entry.body = ajv.compile(body);
      const ok = op.responses?.['200']?.content?.['application/json']?.schema;
      if (ok) {
        entry.ok = ajv.compile(ok);
        const inner = ok.properties?.result ?? ok.properties?.data;
        if (inner) entry.result = ajv.compile(inner);
      }
      byOp[op.operationId] = entry;
    }
  }
  return { api, byOp: byOp as Partial<Record<string, (typeof byOp)[string]>> & Record<Probed, (typeof byOp)[string]> };
}

const uuid = '3f1c2a4e-9b7d-4c1e-8a2b-5d6e7f809a1b';

describe.each(['management', 'alerts'])('openapi/%s.yaml', (name) => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(specPath(name));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
    expect(result.specification).toBe('OpenAPI');
  });

  it('every parameter, request body and 200 schema compiles under Ajv 2020 strict', async () => {
    const api = (await dereference(specPath(name))) as unknown as Json;
    expect(api.openapi).toBe('3.1.0');
    const schemas = collectSchemas(api);
    expect(schemas.length).toBeGreaterThan(0);
    for (const { label, schema } of schemas) {
      const ajv = makeAjv();
      expect(() => ajv.compile(schema), label).not.toThrow();
    }
  });
});

describe('management spec', () => {
  it('has the operations the rules and suites name, and basic auth', async () => {
    const { api, byOp } = await load('management');
    expect(Object.keys(byOp)).toEqual(
      expect.arrayContaining([
        'changeServiceState',
        'createKey',
        'createPipe',
        'getBackup',
        'getPipeSettings',
        'getUsageCost',
        'updatePipe',
      ]),
    );
    expect(api.components.securitySchemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(api.security).toEqual([{ basicAuth: [] }]);
  });

  const createBody = {
    name: 'orders',
    source: {
      broker: {
        brokers: 'b1:9092',
        topics: 'orders',
        consumerGroup: 'cg',
        offset: { timestamp: '2024-01-02T03:04' },
        credentials: { username: 'u', password: 'p' },
        schemaRegistry: { url: 'https://sr', credentials: { username: 'u', password: 'p' } },
      },
      validateSamples: true,
    },
    destination: {
      database: 'db',
      table: 't',
      managedTable: true,
      columns: [{ name: 'id', type: 'UInt64' }],
      roles: ['r'],
    },
    fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
    scaling: { replicas: 1, concurrency: 1, replicaCpuMillicores: 500, replicaMemoryGb: 0.5 },
    settings: { streaming_max_insert_wait_ms: 100, engine_parallel_view_processing: false },
  };

  it('accepts a valid pipe create body and rejects invalid ones', async () => {
    const { byOp } = await load('management');
    const v = byOp.createPipe.body!;
    expect(v(createBody), JSON.stringify(v.errors)).toBe(true);
    // update-only field in a create body
    const withUpdateOnly = structuredClone(createBody) as Json;
    withUpdateOnly.source = {
      relational: { host: 'h', port: 5432, database: 'd', tableMappingsToAdd: [{ sourceTable: 'a' }] },
    };
    expect(v(withUpdateOnly)).toBe(false);
    // two kinds at once
    const twoKinds = structuredClone(createBody) as Json;
    twoKinds.source.stream = { streamName: 's' };
    expect(v(twoKinds)).toBe(false);
    // offset timestamp must be YYYY-MM-DDThh:mm
    const badOffset = structuredClone(createBody) as Json;
    badOffset.source.broker.offset.timestamp = '2024-01-02T03:04:05Z';
    expect(v(badOffset)).toBe(false);
    // missing destination columns
    const noColumns = structuredClone(createBody) as Json;
    delete noColumns.destination.columns;
    expect(v(noColumns)).toBe(false);
  });

  it('pipe update body carries only update-time fields', async () => {
    const { byOp } = await load('management');
    const v = byOp.updatePipe.body!;
    expect(
      v({
        name: 'n',
        source: {
          relational: {
            host: 'h',
            credentials: { username: 'u', password: 'p' },
            settings: { syncIntervalSeconds: 60, pullBatchSize: 1000 },
            tableMappingsToAdd: [{ sourceSchemaName: 's', sourceTable: 'a', targetTable: 'b' }],
            tableMappingsToRemove: [{ sourceSchemaName: 's', sourceTable: 'c', targetTable: 'd' }],
          },
          validateSamples: false,
        },
        destination: { columns: [{ name: 'id', type: 'UInt64' }] },
      }),
      JSON.stringify(v.errors),
    ).toBe(true);
    expect(v({ source: { stream: { streamName: 'create-only' } } })).toBe(false);
    expect(v({ source: { relational: { settings: { publicationName: 'create-only' } } } })).toBe(false);
    expect(v({ destination: { database: 'create-only' } })).toBe(false);
    expect(v({ scaling: { replicas: 2 } })).toBe(false);
  });

  const pipeResult = {
    id: uuid,
    serviceId: uuid,
    name: 'orders',
    state: 'Running',
    source: { broker: { brokers: 'b1:9092', topics: 'orders', offset: { timestamp: '2024-01-02T03:04' } } },
    destination: { database: 'db', table: 't', columns: [{ name: 'id', type: 'UInt64' }] },
    fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
    createdAt: '2024-01-02T03:04:05.123+02:00',
    updatedAt: '2024-01-02T03:04:05Z',
  };

  it('pipe response allows extra properties (secret leaks are a separate rule)', async () => {
    const { byOp } = await load('management');
    const v = byOp.createPipe.result!;
    expect(v(pipeResult), JSON.stringify(v.errors)).toBe(true);
    const leaky = structuredClone(pipeResult) as Json;
    leaky.source.broker.credentials = { username: 'u', password: 'p' };
    leaky.extra = 1;
    expect(v(leaky)).toBe(true);
    expect(v({ ...pipeResult, source: {} })).toBe(false);
    expect(v({ ...pipeResult, id: 'not-a-uuid' })).toBe(false);
    const { updatedAt: _u, ...missing } = pipeResult;
    expect(v(missing)).toBe(false);
  });

  it('settings response requires all 12 keys', async () => {
    const { byOp } = await load('management');
    const v = byOp.getPipeSettings.result!;
    const all = {
      streaming_max_insert_wait_ms: 1,
      object_storage_concurrency: 1,
      object_storage_polling_interval_ms: 1,
      object_storage_max_insert_bytes: 1,
      object_storage_max_file_count: 1,
      engine_max_threads: 1,
      engine_max_insert_threads: 1,
      engine_min_insert_block_size_bytes: 1,
      engine_max_download_threads: 1,
      engine_parallel_distributed_insert_select: 1,
      object_storage_use_cluster_function: true,
      engine_parallel_view_processing: false,
    };
    expect(v(all), JSON.stringify(v.errors)).toBe(true);
    const { engine_max_threads: _e, ...missing } = all;
    expect(v(missing)).toBe(false);
    expect(v({ ...all, engine_parallel_view_processing: 'false' })).toBe(false);
  });

  it('service state command is start or stop', async () => {
    const { byOp } = await load('management');
    const v = byOp.changeServiceState.body!;
    expect(v({ command: 'start' })).toBe(true);
    expect(v({ command: 'stop' })).toBe(true);
    expect(v({ command: 'restart' })).toBe(false);
    expect(v({})).toBe(false);
  });

  it('key create requires at least one known role; expireAt accepts date-time, null or empty', async () => {
    const { byOp } = await load('management');
    const v = byOp.createKey.body!;
    expect(v({ name: 'k', roles: ['developer'], state: 'disabled' })).toBe(true);
    expect(v({ name: 'k', roles: [] })).toBe(false);
    expect(v({ name: 'k', roles: ['owner'] })).toBe(false);
    expect(v({ name: 'k', roles: ['admin'], expireAt: '2030-01-01T00:00:00Z' })).toBe(true);
    expect(v({ name: 'k', roles: ['admin'], expireAt: null })).toBe(true);
    expect(v({ name: 'k', roles: ['admin'], expireAt: '' })).toBe(true);
    expect(v({ name: 'k', roles: ['admin'], expireAt: 'tomorrow' })).toBe(false);
    expect(v({ name: 'k', roles: ['admin'], state: 'paused' })).toBe(false);
  });

  it('key response tolerates absent usedAt/expireAt and null expireAt', async () => {
    const { byOp } = await load('management');
    const v = byOp.createKey.result!;
    const key = {
      id: uuid,
      name: 'k',
      roles: ['admin'],
      keySuffix: 'abcd',
      createdAt: '2024-01-01T00:00:00Z',
      ipAccessList: [],
    };
    expect(v({ keyId: 'id', keySecret: 's', key }), JSON.stringify(v.errors)).toBe(true);
    expect(v({ keyId: 'id', keySecret: 's', key: { ...key, expireAt: null } })).toBe(true);
    expect(v({ keyId: 'id', keySecret: 's', key: { ...key, expireAt: 'x' } })).toBe(false);
    expect(v({ keySecret: 's', key })).toBe(false);
  });

  it('usage costs may be one entry or a list', async () => {
    const { byOp } = await load('management');
    const v = byOp.getUsageCost.result!;
    const metrics = Object.fromEntries(
      [
        'storageCredits',
        'backupCredits',
        'computeCredits',
        'dataTransferCredits',
        'initialLoadCredits',
        'publicDataTransferCredits',
        'interRegionTier1DataTransferCredits',
        'interRegionTier2DataTransferCredits',
        'interRegionTier3DataTransferCredits',
        'interRegionTier4DataTransferCredits',
      ].map((k) => [k, 0.5]),
    );
    const entry = {
      dataWarehouseId: uuid,
      serviceId: uuid,
      date: '2024-01-31',
      entityId: uuid,
      entityName: 'svc',
      totalCredits: 3,
      locked: false,
      metrics,
    };
    expect(v({ grandTotalCredits: 3, costs: entry }), JSON.stringify(v.errors)).toBe(true);
    expect(v({ grandTotalCredits: 3, costs: [entry, entry] })).toBe(true);
    expect(v({ grandTotalCredits: 3, costs: [] })).toBe(true);
    expect(v({ grandTotalCredits: 3, costs: { ...entry, date: '2024-01-31T00:00:00Z' } })).toBe(false);
    const { storageCredits: _s, ...fewer } = metrics;
    expect(v({ grandTotalCredits: 3, costs: [{ ...entry, metrics: fewer }] })).toBe(false);
    const params = (await load('management')).api.paths['/v1/organizations/{organizationId}/usageCost'].get.parameters;
    expect(params.map((p: Json) => [p.name, p.required, p.schema.format])).toEqual([
      ['from_date', true, 'date-time'],
      ['to_date', true, 'date-time'],
    ]);
  });
});

describe('alerts spec', () => {
  const alert = {
    id: 'a1',
    name: 'n',
    message: 'm',
    threshold: 5,
    interval: '5m',
    thresholdType: 'above',
    source: 'search',
    state: 'OK',
    channel: { type: 'webhook', webhookId: 'w1' },
    team: 't1',
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00.5+01:00',
  };

  it('has the operations the rules and suites name, and bearer auth', async () => {
    const { api, byOp } = await load('alerts');
    expect(Object.keys(byOp)).toEqual(expect.arrayContaining(['listAlerts', 'updateAlert']));
    expect(api.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('update body enforces the enums and uses dashboardId', async () => {
    const { byOp } = await load('alerts');
    const v = byOp.updateAlert.body!;
    expect(v({})).toBe(true);
    expect(
      v({
        threshold: 3,
        interval: '1h',
        thresholdType: 'below',
        source: 'tile',
        dashboardId: 'd',
        tileId: 't',
        channel: { type: 'webhook', webhookId: 'w' },
      }),
    ).toBe(true);
    expect(v({ thresholdType: 'sideways' })).toBe(false);
    expect(v({ source: 'dashboard' })).toBe(false);
    expect(v({ dashboard: 'd' })).toBe(false);
  });

  it('update and list responses', async () => {
    const { byOp } = await load('alerts');
    const up = byOp.updateAlert.ok!;
    expect(
      up({ data: { ...alert, dashboard: 'd', tileId: 't', savedSearch: 's', groupBy: 'g', silenced: false } }),
      JSON.stringify(up.errors),
    ).toBe(true);
    expect(up({ data: alert })).toBe(false);
    const list = byOp.listAlerts.ok!;
    expect(list({ data: [alert, { ...alert, extra: true }] }), JSON.stringify(list.errors)).toBe(true);
    expect(list({ data: alert })).toBe(false);
    expect(list({ data: [{ ...alert, thresholdType: 'sideways' }] })).toBe(false);
  });
});

describe('what the specs mark, and what the descriptors say of each API', () => {
  it('the secret and request-only fields come from the marks: x-conformance-secret, writeOnly', async () => {
    const specs = await loadSpecs();
    expect([...specs.secretFields].sort()).toEqual(['accessKey', 'credentials', 'keySecret', 'password', 'secretKey']);
    expect([...specs.requestOnlySecretFields].sort()).toEqual(['accessKey', 'credentials']);
    const writeOnly = (operationId: string): string[] => [...operationById(specs, operationId).writeOnlyFields].sort();
    expect(writeOnly('createPipe')).toEqual(['accessKey', 'credentials', 'roles', 'validateSamples']);
    expect(writeOnly('updatePipe')).toEqual([
      'accessKey',
      'credentials',
      'tableMappingsToAdd',
      'tableMappingsToRemove',
      'validateSamples',
    ]);
    expect(writeOnly('createKey')).toEqual([]);
  });

  it('the open fields come from x-conformance-open, named to the leaf through the source kinds', async () => {
    const specs = await loadSpecs();
    const open = (operationId: string): string[] => [...operationById(specs, operationId).openFields];
    const create = open('createPipe');
    expect(create.filter((path) => path.startsWith('settings.'))).toHaveLength(12);
    expect(create.filter((path) => path.startsWith('scaling.'))).toHaveLength(4);
    expect(create.filter((path) => path.startsWith('source.')).sort()).toEqual([
      'source.relational.port',
      'source.relational.settings.initialLoadParallelism',
      'source.relational.settings.pullBatchSize',
      'source.relational.settings.snapshotNumRowsPerPartition',
      'source.relational.settings.snapshotNumberOfParallelTables',
      'source.relational.settings.syncIntervalSeconds',
      'source.stream.timestamp',
    ]);
    expect(
      open('updatePipe')
        .filter((path) => !path.startsWith('settings.'))
        .sort(),
    ).toEqual([
      'source.relational.port',
      'source.relational.settings.pullBatchSize',
      'source.relational.settings.syncIntervalSeconds',
    ]);
    expect(open('updateAlert')).toEqual(['threshold']);
    expect(open('createKey')).toEqual([]);
  });

  it('the settings keys are the ones the settings response requires, with their types', async () => {
    const keys = requiredPayloadKeys(operationById(await loadSpecs(), 'getPipeSettings'), 'result');
    expect(keys).toHaveLength(12);
    expect(Object.fromEntries(keys)).toMatchObject({
      streaming_max_insert_wait_ms: 'number',
      engine_parallel_view_processing: 'boolean',
      object_storage_use_cluster_function: 'boolean',
    });
  });

  it.each(API_LIST.map((api) => [api.name, api] as const))(
    "%s: every 2xx response carries the descriptor's envelope, and the spec requires its security scheme",
    async (_name, api) => {
      const specs = await loadSpecs();
      const operations = specs.operations.filter((op) => op.api === api.name);
      expect(operations.length).toBeGreaterThan(0);
      const { payload, status, requestId } = api.envelope;
      for (const op of operations) {
        const schema = op.responseSchemas['200'] as { required?: string[] };
        expect([...(schema.required ?? [])].sort(), op.operationId).toEqual(
          [payload, status, requestId].filter((field) => field !== undefined).sort(),
        );
        expect(op.path.startsWith(`${api.settings.pathPrefix}/`), op.key).toBe(true);
      }
      const document = specs.documents[api.name];
      expect(document.security).toContainEqual({ [api.auth.securityScheme]: [] });
      expect(document.components?.securitySchemes?.[api.auth.securityScheme]).toMatchObject({
        type: 'http',
        scheme: api.auth.scheme,
      });
    },
  );

  it('a spec whose security scheme is not the one its descriptor names is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spec-security-'));
    const alerts = join(dir, 'alerts.yaml');
    await writeFile(alerts, (await readFile(SPEC_FILES.alerts, 'utf8')).replace('scheme: bearer', 'scheme: basic'));
    const error = await loadSpecs({ ...SPEC_FILES, alerts }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'SPEC_INVALID' });
    expect((error as Error).message).toContain('bearerAuth (HTTP bearer)');
  });
});
