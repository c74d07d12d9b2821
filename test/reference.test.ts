import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertUpdateBody,
  alertUpdateBodyObserve,
  keyCreateBody,
  keyCreateBodyObserve,
  PIPE_KINDS,
  pipeCreateBody,
  pipeCreateBodyObserve,
  pipeUpdateBody,
  type AlertReference,
} from '../generators/index.ts';
import { FAULTS } from '../reference/faults.ts';
import { runReference } from '../reference/main.ts';
import { MODES } from '../reference/modes.ts';
import { RULE_IDS } from '../reference/rule-id.ts';
import { startReference, type ReferenceTarget } from '../reference/server.ts';
import { UNPROBED } from './support/unprobed.ts';
import { jsonText } from '../core/json-text.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const DAY = 86_400_000;

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

type Auth =
  | 'basic'
  | 'bearer'
  | 'none'
  | 'wrong'
  | { readonly basic: readonly [string, string] }
  | { readonly raw: string };

interface Send {
  readonly method?: string;
  readonly body?: unknown;
  readonly raw?: string;
  readonly auth?: Auth;
  readonly contentType?: string;
}

/** Sends one request to a target's API and reads the whole reply. */
async function send(
  target: ReferenceTarget,
  api: 'management' | 'alerts',
  path: string,
  options: Send = {},
): Promise<Reply> {
  const base = api === 'management' ? target.managementUrl : target.alertsUrl;
  const headers: Record<string, string> = {};
  const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const auth = options.auth ?? (api === 'management' ? 'basic' : 'bearer');
  if (auth === 'basic') headers.authorization = basic(target.managementKeyId, target.managementKeySecret);
  else if (auth === 'bearer') headers.authorization = `Bearer ${target.alertsToken}`;
  else if (auth === 'wrong')
    headers.authorization = api === 'management' ? basic(target.managementKeyId, 'wrong-secret') : 'Bearer wrong-token';
  else if (typeof auth === 'object' && 'basic' in auth) headers.authorization = basic(auth.basic[0], auth.basic[1]);
  else if (typeof auth === 'object') headers.authorization = auth.raw;
  // Observe bodies may hold integers past 2^53 as bigints: written as their digits, as the harness sends them.
  const body = options.raw ?? (options.body === undefined ? undefined : jsonText(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${base}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const paths = (t: ReferenceTarget) => {
  const org = `/v1/organizations/${t.organizationId}`;
  const service = `${org}/services/${t.serviceId}`;
  return {
    pipes: `${service}/pipes`,
    pipe: (id: string) => `${service}/pipes/${id}`,
    settings: (id: string) => `${service}/pipes/${id}/settings`,
    state: `${service}/state`,
    keys: `${org}/keys`,
    usage: (from: string, to: string) =>
      `${org}/usageCost?from_date=${encodeURIComponent(from)}&to_date=${encodeURIComponent(to)}`,
    backup: `${service}/backups/${t.backupId}`,
  };
};

const columns = [
  { name: 'id', type: 'UInt64' },
  { name: 'payload', type: 'String' },
];
const mappings = [
  { sourceField: 'id', destinationField: 'id' },
  { sourceField: 'body', destinationField: 'payload' },
];

/** A valid create body for each source kind, with unique secret values. */
function pipeBody(kind: 'broker' | 'objectStorage' | 'stream' | 'relational', secret: string): Record<string, unknown> {
  const sources = {
    broker: {
      brokers: 'b1:9092',
      topics: 'events',
      consumerGroup: 'g',
      offset: { timestamp: '2026-01-01T00:00' },
      schemaRegistry: { url: 'https://registry', credentials: { username: `${secret}-ru`, password: `${secret}-rp` } },
      reversePrivateEndpointIds: ['rpe-1'],
      credentials: { username: `${secret}-u`, password: `${secret}-p` },
    },
    objectStorage: {
      url: 's3://bucket/*.json',
      compression: 'auto',
      isContinuous: false,
      accessKey: { accessKeyId: `${secret}-ak`, secretKey: `${secret}-sk` },
    },
    stream: {
      streamName: 's',
      region: 'us-east-1',
      useEnhancedFanOut: true,
      timestamp: 1700000000,
      accessKey: { accessKeyId: `${secret}-ak`, secretKey: `${secret}-sk` },
    },
    relational: {
      host: 'db',
      port: 5432,
      database: 'app',
      credentials: { username: `${secret}-u`, password: `${secret}-p` },
      settings: { syncIntervalSeconds: 60, publicationName: 'pub' },
      tableMappings: [{ sourceSchemaName: 'public', sourceTable: 't', targetTable: 't' }],
    },
  };
  return {
    name: `pipe-${kind}`,
    source: { [kind]: sources[kind], validateSamples: true },
    destination: { database: 'default', table: 'events', managedTable: true, columns, roles: ['writer'] },
    fieldMappings: mappings,
    scaling: { replicas: 2, concurrency: 3, replicaCpuMillicores: 250, replicaMemoryGb: 0.5 },
    settings: { engine_max_threads: 12, engine_parallel_view_processing: true },
  };
}

function hasKey(value: unknown, names: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKey(item, names));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) => names.has(key) || hasKey(item, names));
}

/** One valid request per management operation (pipe ones need an existing pipe id). */
function managementCalls(t: ReferenceTarget, pipeId: string): Array<[string, string, Send]> {
  const p = paths(t);
  return [
    ['createPipe', p.pipes, { method: 'POST', body: pipeBody('stream', 'auth') }],
    ['updatePipe', p.pipe(pipeId), { method: 'PATCH', body: { name: 'renamed' } }],
    ['getPipeSettings', p.settings(pipeId), {}],
    ['changeServiceState', p.state, { method: 'PATCH', body: { command: 'start' } }],
    ['createKey', p.keys, { method: 'POST', body: { name: 'k', roles: ['developer'] } }],
    ['getUsageCost', p.usage('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'), {}],
    ['getBackup', p.backup, {}],
  ];
}

describe('reference target, correct by default', () => {
  let t: ReferenceTarget;
  let pipeId: string;
  let alertId: string;
  beforeAll(async () => {
    t = await startReference();
    const created = await send(t, 'management', paths(t).pipes, {
      method: 'POST',
      body: pipeBody('relational', 'seed'),
    });
    pipeId = created.json.result.id;
    alertId = t.alertIds[0]!;
  });
  afterAll(() => t.close());

  it('starts with fresh ids and credentials on loopback', async () => {
    expect(t.managementUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.alertsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.organizationId).toMatch(UUID_V4);
    expect(t.alertIds.length).toBeGreaterThanOrEqual(3);
    const other = await startReference();
    expect(other.managementKeySecret).not.toBe(t.managementKeySecret);
    expect(other.organizationId).not.toBe(t.organizationId);
    await other.close();
  });

  it('accepts every valid management operation with the envelope and a fresh v4 requestId', async () => {
    const ids = new Set<string>();
    for (const [operation, path, options] of managementCalls(t, pipeId)) {
      const reply = await send(t, 'management', path, options);
      expect(reply.status, operation).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.json).toMatchObject({
        status: 200,
        requestId: expect.stringMatching(UUID_V4),
        result: expect.any(Object),
      });
      ids.add(reply.json.requestId);
    }
    expect(ids.size).toBe(7);
  });

  it('rejects missing, wrong and other-scheme credentials on every operation, before reading the body', async () => {
    const alertsCalls: Array<[string, Send]> = [
      [`/api/v2/alerts/${alertId}`, { method: 'PUT', body: { name: 'x' } }],
      ['/api/v2/alerts', {}],
    ];
    for (const [operation, path, options] of managementCalls(t, pipeId)) {
      for (const auth of ['none', 'wrong', 'bearer', { raw: 'Basic' }] as const) {
        const reply = await send(t, 'management', path, { ...options, auth });
        expect(reply.status, `${operation} ${JSON.stringify(auth)}`).toBe(401);
        expect(reply.json.error).toEqual(expect.any(String));
      }
      if (options.body !== undefined) {
        expect((await send(t, 'management', path, { ...options, raw: '{bad', auth: 'none' })).status).toBe(401);
      }
    }
    for (const [path, options] of alertsCalls) {
      for (const auth of ['none', 'wrong', 'basic'] as const) {
        expect((await send(t, 'alerts', path, { ...options, auth })).status, `${path} ${auth}`).toBe(401);
      }
    }
  });

  it.each(['broker', 'objectStorage', 'stream', 'relational'] as const)(
    'creates a %s pipe that reflects the request and returns no secret',
    async (kind) => {
      const secret = `s3cr3t${kind}${Date.now()}`;
      const body = pipeBody(kind, secret);
      const reply = await send(t, 'management', paths(t).pipes, { method: 'POST', body });
      expect(reply.status).toBe(200);
      expect(reply.json.requestId).toMatch(UUID_V4);
      expect(reply.text).not.toContain(secret);
      expect([...reply.headers.values()].join('\n')).not.toContain(secret);
      const result = reply.json.result;
      expect(hasKey(result, new Set(['credentials', 'accessKey', 'validateSamples', 'roles']))).toBe(false);
      expect(result).toMatchObject({
        id: expect.stringMatching(UUID_V4),
        serviceId: t.serviceId,
        name: body.name,
        fieldMappings: mappings,
        scaling: body.scaling,
      });
      expect(Object.keys(result.source)).toEqual([kind]);
      expect(result.destination).toEqual({ database: 'default', table: 'events', managedTable: true, columns });
      expect(Object.keys(result.settings)).toHaveLength(12);
      expect(result.settings).toMatchObject(body.settings as object);
    },
  );

  it('rejects creates that miss a column mapping, carry two kinds or a wrong type, and unknown paths', async () => {
    const p = paths(t);
    const missing = { ...pipeBody('stream', 'x'), fieldMappings: [mappings[0]] };
    const reply = await send(t, 'management', p.pipes, { method: 'POST', body: missing });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toContain('payload');
    const twoKinds = { ...pipeBody('stream', 'x'), source: { stream: {}, broker: {} } };
    expect((await send(t, 'management', p.pipes, { method: 'POST', body: twoKinds })).status).toBe(400);
    const wrongType = pipeBody('broker', 'x');
    (wrongType.source as any).broker.topics = 7;
    const typed = await send(t, 'management', p.pipes, { method: 'POST', body: wrongType });
    expect(typed.status).toBe(400);
    expect(typed.json.error).toContain('source.broker.topics must be a string');
    const otherService = p.pipes.replace(t.serviceId, '00000000-0000-4000-8000-000000000000');
    expect((await send(t, 'management', otherService, { method: 'POST', body: pipeBody('stream', 'x') })).status).toBe(
      404,
    );
    expect(
      (
        await send(t, 'management', p.pipes.replace(t.serviceId, 'nope'), {
          method: 'POST',
          body: pipeBody('stream', 'x'),
        })
      ).status,
    ).toBe(400);
    expect((await send(t, 'management', p.settings('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });

  it('applies a pipe update, refuses create-only fields and another kind, and shows new settings', async () => {
    const p = paths(t);
    const patch = {
      name: 'renamed',
      source: {
        relational: {
          port: 6543,
          settings: { pullBatchSize: 500 },
          credentials: { username: 'u', password: 'patch-secret-1' },
          tableMappingsToAdd: [{ sourceSchemaName: 'public', sourceTable: 'u', targetTable: 'u' }],
          tableMappingsToRemove: [{ sourceTable: 't' }],
        },
      },
      destination: { columns: [{ name: 'id', type: 'UInt64' }] },
      fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
      settings: { object_storage_concurrency: 9 },
    };
    const reply = await send(t, 'management', p.pipe(pipeId), { method: 'PATCH', body: patch });
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain('patch-secret-1');
    const relational = reply.json.result.source.relational;
    expect(relational).toMatchObject({
      port: 6543,
      settings: { pullBatchSize: 500, syncIntervalSeconds: 60, publicationName: 'pub' },
    });
    expect(relational.tableMappings).toEqual([{ sourceSchemaName: 'public', sourceTable: 'u', targetTable: 'u' }]);
    expect(reply.json.result.name).toBe('renamed');
    expect(reply.json.result.settings.object_storage_concurrency).toBe(9);
    const settings = await send(t, 'management', p.settings(pipeId));
    expect(settings.json.result).toMatchObject({ object_storage_concurrency: 9 });
    expect(Object.keys(settings.json.result)).toHaveLength(12);
    for (const body of [
      { source: { relational: { tableMappings: [] } } },
      { source: { broker: { iamRole: 'r' } } },
      { scaling: { replicas: 1 } },
      { destination: { columns: [{ name: 'extra', type: 'String' }] } },
    ]) {
      expect(
        (await send(t, 'management', p.pipe(pipeId), { method: 'PATCH', body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });

  it('starts and stops the service and refuses other commands', async () => {
    for (const command of ['stop', 'start']) {
      const reply = await send(t, 'management', paths(t).state, { method: 'PATCH', body: { command } });
      expect(reply.status).toBe(200);
      expect(reply.json.result).toMatchObject({
        id: t.serviceId,
        byocId: expect.any(String),
        hasTransparentDataEncryption: expect.any(Boolean),
      });
      expect(reply.json.result.state).toBe(command === 'stop' ? 'stopped' : 'running');
    }
    for (const body of [{ command: 'restart' }, {}, { command: 1 }, []]) {
      expect((await send(t, 'management', paths(t).state, { method: 'PATCH', body })).status).toBe(400);
    }
  });

  it('creates keys that never expire, that work as credentials while enabled, and refuses bad roles', async () => {
    const p = paths(t);
    for (const expire of [{}, { expireAt: null }, { expireAt: '' }]) {
      const reply = await send(t, 'management', p.keys, {
        method: 'POST',
        body: { name: 'k', roles: ['admin'], ...expire },
      });
      expect(reply.status).toBe(200);
      expect(reply.json.result.key.expireAt).toBeNull();
      expect(reply.json.result.key).not.toHaveProperty('usedAt');
    }
    const enabled = await send(t, 'management', p.keys, {
      method: 'POST',
      body: {
        name: 'e',
        roles: ['query_endpoints'],
        expireAt: '2099-01-01T00:00:00+02:00',
        ipAccessList: [{ source: '10.0.0.0/8', description: 'lan' }],
      },
    });
    const { keyId, keySecret, key } = enabled.json.result;
    expect(key).toMatchObject({
      name: 'e',
      roles: ['query_endpoints'],
      keySuffix: keyId.slice(-4),
      expireAt: '2098-12-31T22:00:00.000Z',
    });
    expect((await send(t, 'management', p.backup, { auth: { basic: [keyId, keySecret] } })).status).toBe(200);
    expect((await send(t, 'management', p.backup, { auth: { basic: [keyId, 'nope'] } })).status).toBe(401);
    const disabled = await send(t, 'management', p.keys, {
      method: 'POST',
      body: { name: 'd', roles: ['admin'], state: 'disabled' },
    });
    expect(
      (
        await send(t, 'management', p.backup, {
          auth: { basic: [disabled.json.result.keyId, disabled.json.result.keySecret] },
        })
      ).status,
    ).toBe(401);
    for (const body of [
      { name: 'k', roles: [] },
      { name: 'k', roles: ['root'] },
      { name: 'k', roles: ['admin'], expireAt: 'tomorrow' },
      { name: 'k', roles: ['admin'], state: 'paused' },
      { roles: ['admin'] },
    ]) {
      expect((await send(t, 'management', p.keys, { method: 'POST', body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('limits usage periods to 30 days, compares instants, and includes to_date', async () => {
    const p = paths(t);
    const from = Date.UTC(2026, 0, 10);
    const iso = (ms: number): string => new Date(ms).toISOString();
    const thirty = await send(t, 'management', p.usage(iso(from), iso(from + 30 * DAY)));
    expect(thirty.status).toBe(200);
    expect(thirty.json.result.costs).toHaveLength(31);
    expect(thirty.json.result.costs.at(-1).date).toBe('2026-02-09');
    const sum = thirty.json.result.costs.reduce((s: number, c: { totalCredits: number }) => s + c.totalCredits, 0);
    expect(thirty.json.result.grandTotalCredits).toBeCloseTo(sum, 6);
    expect((await send(t, 'management', p.usage(iso(from), iso(from + 30 * DAY + 1000)))).status).toBe(400);
    expect((await send(t, 'management', p.usage(iso(from), iso(from - 1000)))).status).toBe(400);
    const three = await send(t, 'management', p.usage('2026-01-01T00:00:00Z', '2026-01-03T00:00:00Z'));
    expect(three.json.result.costs.map((c: { date: string }) => c.date)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
    ]);
    expect(Object.keys(three.json.result.costs[0].metrics)).toHaveLength(10);
    expect((await send(t, 'management', p.usage('2026-01-01', '2026-01-31'))).status).toBe(200);
    const org = `/v1/organizations/${t.organizationId}/usageCost`;
    for (const query of [
      '?from_date=2026-01-01T00:00:00Z',
      '?to_date=2026-01-01T00:00:00Z',
      '',
      '?from_date=yesterday&to_date=2026-01-01',
    ]) {
      expect((await send(t, 'management', `${org}${query}`)).status, query).toBe(400);
    }
  });

  it('reads the backup asked for', async () => {
    const reply = await send(t, 'management', paths(t).backup);
    expect(reply.json.result).toMatchObject({
      id: t.backupId,
      serviceId: t.serviceId,
      sizeInBytes: expect.any(Number),
      bucket: expect.any(Object),
    });
    expect(
      (await send(t, 'management', paths(t).backup.replace(t.backupId, '00000000-0000-4000-8000-000000000000'))).status,
    ).toBe(404);
  });

  it('maps dashboardId to dashboard, persists updates, and keeps the list free of update-only fields', async () => {
    const update = {
      threshold: 42,
      interval: '10m',
      thresholdType: 'below',
      source: 'tile',
      dashboardId: 'dash-1',
      tileId: 'tile-9',
      channel: { type: 'webhook', webhookId: 'wh-1' },
      name: 'n',
      message: 'm',
    };
    const reply = await send(t, 'alerts', `/api/v2/alerts/${alertId}`, { method: 'PUT', body: update });
    expect(reply.status).toBe(200);
    const { dashboardId, ...rest } = update;
    expect(reply.json.data).toMatchObject({
      ...rest,
      dashboard: dashboardId,
      savedSearch: expect.any(String),
      groupBy: expect.any(String),
      silenced: expect.any(Boolean),
    });
    expect(reply.json.data).not.toHaveProperty('dashboardId');
    const list = await send(t, 'alerts', '/api/v2/alerts');
    expect(list.json.data.length).toBe(t.alertIds.length);
    expect(new Set(list.json.data.map((a: { source: string }) => a.source))).toEqual(new Set(['tile', 'search']));
    for (const alert of list.json.data)
      for (const field of ['savedSearch', 'groupBy', 'silenced']) expect(alert).not.toHaveProperty(field);
    expect(list.json.data.find((a: { id: string }) => a.id === alertId)).toMatchObject({
      ...rest,
      dashboard: dashboardId,
    });
    for (const body of [
      { thresholdType: 'sideways' },
      { source: 'dashboard' },
      { threshold: 'high' },
      { interval: 'soon' },
      { channel: 'x' },
    ]) {
      expect(
        (await send(t, 'alerts', `/api/v2/alerts/${alertId}`, { method: 'PUT', body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await send(t, 'alerts', '/api/v2/alerts/nope', { method: 'PUT', body: { name: 'x' } })).status).toBe(404);
    expect((await send(t, 'alerts', '/api/v2/alerts', { method: 'DELETE' })).status).toBe(405);
    expect((await send(t, 'alerts', '/api/v2/other')).status).toBe(404);
  });

  it('answers malformed, non-JSON and oversized bodies with 4xx', async () => {
    const p = paths(t);
    const bad = await send(t, 'management', p.keys, { method: 'POST', raw: '{"name": "secret-in-body", ' });
    expect(bad.status).toBe(400);
    expect(bad.text).not.toContain('secret-in-body');
    expect((await send(t, 'alerts', `/api/v2/alerts/${alertId}`, { method: 'PUT', raw: 'nope' })).status).toBe(400);
    expect(
      (await send(t, 'management', p.state, { method: 'PATCH', raw: '{"command":"start"}', contentType: 'text/plain' }))
        .status,
    ).toBe(415);
    expect((await send(t, 'management', p.keys, { method: 'POST', raw: `"${'x'.repeat(1_100_000)}"` })).status).toBe(
      413,
    );
  });

  it('answers 200 concurrent mixed requests without a 5xx', async () => {
    const p = paths(t);
    const requests = Array.from({ length: 200 }, (_, i) => {
      switch (i % 6) {
        case 0:
          return send(t, 'management', p.pipes, { method: 'POST', body: pipeBody('broker', `c${i}`) });
        case 1:
          return send(t, 'management', p.pipe(pipeId), {
            method: 'PATCH',
            body: { settings: { engine_max_threads: i } },
          });
        case 2:
          return send(t, 'management', p.usage('2026-01-01', '2026-01-20'));
        case 3:
          return send(t, 'alerts', `/api/v2/alerts/${t.alertIds[i % t.alertIds.length]}`, {
            method: 'PUT',
            body: { threshold: i },
          });
        case 4:
          return send(t, 'alerts', '/api/v2/alerts');
        default:
          return send(t, 'management', p.keys, { method: 'POST', raw: '{oops' });
      }
    });
    const replies = await Promise.all(requests);
    expect(replies.filter((r) => r.status >= 500)).toEqual([]);
    const ids = replies.map((r) => r.json?.requestId).filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('fault and mode tables', () => {
  it('covers every rule a probe judges with a fault, and the three key rules with three faults each', () => {
    for (const rule of RULE_IDS.filter((id) => !UNPROBED.has(id)))
      expect(
        FAULTS.some((f) => f.breaks.includes(rule)),
        rule,
      ).toBe(true);
    for (const rule of ['secrets.absent', 'usage.period-limit', 'auth.required'] as const) {
      expect(FAULTS.filter((f) => f.breaks.includes(rule)).length, rule).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    expect(Object.isFrozen(FAULTS) && Object.isFrozen(MODES)).toBe(true);
  });

  it('refuses unknown fault and mode names, listing the valid ones', async () => {
    await expect(startReference({ faults: ['no-such-fault'] })).rejects.toThrow(/no-such-fault.*auth-missing-accepted/);
    await expect(startReference({ modes: ['no-such-mode'] })).rejects.toThrow(/no-such-mode.*extra-fields/);
  });

  it.each(FAULTS.map((f) => f.name))('starts with fault %s', async (name) => {
    const t = await startReference({ faults: [name] });
    expect(t.faults).toEqual([name]);
    const reply = await send(t, 'alerts', '/api/v2/alerts');
    expect(reply.status).toBe(200);
    await t.close();
  });

  it.each(MODES.map((m) => m.name))('starts with mode %s and still answers correctly', async (name) => {
    const t = await startReference({ modes: [name] });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await send(t, 'management', paths(t).backup)).status);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    await t.close();
  });

  it('changes behaviour as declared under a sample of faults', async () => {
    const check = async (fault: string, probe: (t: ReferenceTarget) => Promise<void>): Promise<void> => {
      const t = await startReference({ faults: [fault] });
      try {
        await probe(t);
      } finally {
        await t.close();
      }
    };
    await check('auth-missing-accepted', async (t) => {
      expect((await send(t, 'management', paths(t).backup, { auth: 'none' })).status).toBe(200);
    });
    await check('broker-credentials-echoed', async (t) => {
      const reply = await send(t, 'management', paths(t).pipes, { method: 'POST', body: pipeBody('broker', 'leak') });
      expect(reply.json.result.source.broker.credentials.password).toBe('leak-p');
    });
    await check('relational-password-as-note', async (t) => {
      const reply = await send(t, 'management', paths(t).pipes, {
        method: 'POST',
        body: pipeBody('relational', 'leak'),
      });
      expect(reply.json.result.source.relational.note).toBe('leak-p');
    });
    await check('secret-in-header', async (t) => {
      const reply = await send(t, 'management', paths(t).pipes, { method: 'POST', body: pipeBody('stream', 'leak') });
      expect(reply.headers.get('x-source-secret')).toBe('leak-sk');
    });
    await check('usage-accepts-31-days', async (t) => {
      expect((await send(t, 'management', paths(t).usage('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'))).status).toBe(
        200,
      );
      expect((await send(t, 'management', paths(t).usage('2026-01-01T00:00:00Z', '2026-02-02T00:00:00Z'))).status).toBe(
        400,
      );
    });
    await check('usage-rejects-30-days', async (t) => {
      expect((await send(t, 'management', paths(t).usage('2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z'))).status).toBe(
        400,
      );
      expect((await send(t, 'management', paths(t).usage('2026-01-01T00:00:00Z', '2026-01-30T23:59:59Z'))).status).toBe(
        200,
      );
    });
    await check('usage-extra-day', async (t) => {
      const reply = await send(t, 'management', paths(t).usage('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'));
      expect(reply.json.result.costs.at(-1).date).toBe('2026-01-03');
    });
    await check('request-id-reused', async (t) => {
      const ids = [];
      for (let i = 0; i < 3; i += 1)
        ids.push(
          (await send(t, 'management', paths(t).pipes, { method: 'POST', body: pipeBody('stream', `reused ${i}`) }))
            .json.requestId,
        );
      expect((await send(t, 'management', paths(t).backup)).json.requestId).not.toBe(ids[0]);
      expect(ids[1]).toBe(ids[0]);
      expect(ids[2]).not.toBe(ids[0]);
    });
    await check('request-id-v1', async (t) => {
      expect((await send(t, 'management', paths(t).backup)).json.requestId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab]/,
      );
    });
    await check('malformed-json-500', async (t) => {
      expect((await send(t, 'management', paths(t).keys, { method: 'POST', raw: '{' })).status).toBe(500);
      expect(
        (await send(t, 'management', paths(t).keys, { method: 'POST', body: { name: 'k', roles: [] } })).status,
      ).toBe(400);
    });
    await check('keys-empty-roles-crash', async (t) => {
      expect(
        (await send(t, 'management', paths(t).keys, { method: 'POST', body: { name: 'k', roles: [] } })).status,
      ).toBe(500);
    });
    await check('pipe-update-not-persisted', async (t) => {
      const created = await send(t, 'management', paths(t).pipes, { method: 'POST', body: pipeBody('stream', 'x') });
      const id = created.json.result.id;
      const patched = await send(t, 'management', paths(t).pipe(id), {
        method: 'PATCH',
        body: { settings: { engine_max_threads: 99 } },
      });
      expect(patched.json.result.settings.engine_max_threads).toBe(99);
      expect((await send(t, 'management', paths(t).settings(id))).json.result.engine_max_threads).toBe(12);
    });
    await check('alerts-update-unwrapped', async (t) => {
      const reply = await send(t, 'alerts', `/api/v2/alerts/${t.alertIds[0]}`, { method: 'PUT', body: { name: 'x' } });
      expect(reply.json).not.toHaveProperty('data');
      expect(reply.json.name).toBe('x');
    });
    await check('backup-connection-reset', async (t) => {
      await expect(send(t, 'management', paths(t).backup)).rejects.toThrow();
    });
    await check('settings-hang', async (t) => {
      const created = await send(t, 'management', paths(t).pipes, { method: 'POST', body: pipeBody('stream', 'x') });
      const hung = await Promise.race([
        send(t, 'management', paths(t).settings(created.json.result.id)).then(
          () => 'answered',
          () => 'failed',
        ),
        new Promise((resolve) => setTimeout(() => resolve('hung'), 300)),
      ]);
      expect(hung).toBe('hung');
    });
  });

  it('shapes responses as declared under a sample of modes', async () => {
    const t = await startReference({
      modes: [
        'status-422',
        'plain-text-errors',
        'uppercase-uuids',
        'costs-object',
        'conditional-absent',
        'extra-fields',
      ],
    });
    try {
      const p = paths(t);
      const rejected = await send(t, 'management', p.keys, { method: 'POST', body: { name: 'k', roles: [] } });
      expect(rejected.status).toBe(422);
      expect(rejected.json.errors[0].field).toBe('roles');
      const alertError = await send(t, 'alerts', `/api/v2/alerts/${t.alertIds[0]}`, {
        method: 'PUT',
        body: { thresholdType: 'x' },
      });
      expect(alertError.headers.get('content-type')).toMatch(/^text\/plain/);
      const backup = await send(t, 'management', p.backup);
      expect(backup.json.requestId).toBe(backup.json.requestId.toUpperCase());
      expect(backup.json.result.id).toBe(t.backupId.toUpperCase());
      expect(backup.json.result.undocumentedNote).toEqual(expect.any(String));
      const oneDay = await send(t, 'management', p.usage('2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z'));
      expect(Array.isArray(oneDay.json.result.costs)).toBe(false);
      expect(oneDay.json.result.costs.date).toBe('2026-01-01');
      const key = await send(t, 'management', p.keys, { method: 'POST', body: { name: 'k', roles: ['admin'] } });
      expect(key.json.result.key).not.toHaveProperty('expireAt');
      const state = await send(t, 'management', p.state, { method: 'PATCH', body: { command: 'stop' } });
      expect(state.json.result).not.toHaveProperty('byocId');
    } finally {
      await t.close();
    }
    const limited = await startReference({ modes: ['rate-limit-retry-after', 'rate-limit-reset', 'rate-limit-bare'] });
    try {
      const replies: Reply[] = [];
      for (let i = 0; i < 8; i += 1) replies.push(await send(limited, 'alerts', '/api/v2/alerts'));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 429, 200, 429, 200, 429, 200]);
      expect(replies[2]!.headers.get('retry-after')).toBe('1');
      expect(Number(replies[4]!.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(replies[6]!.headers.get('retry-after')).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

/** Starts a target with the given faults and modes, runs `probe` against it, and stops it. */
async function withTarget(
  options: { faults?: string[]; modes?: string[] },
  probe: (t: ReferenceTarget) => Promise<void>,
): Promise<void> {
  const t = await startReference(options);
  try {
    await probe(t);
  } finally {
    await t.close();
  }
}

const listedAlerts = async (t: ReferenceTarget): Promise<Record<string, any>[]> =>
  (await send(t, 'alerts', '/api/v2/alerts')).json.data;

/** The references of the listed tile alerts, as a must-accept alert update takes them. */
const referencesOf = (alerts: readonly Record<string, any>[]): AlertReference[] =>
  alerts
    .filter((a) => a.source === 'tile' && a.dashboard !== '')
    .map((a) => ({ dashboardId: a.dashboard, tileId: a.tileId, webhookId: a.channel.webhookId }));

const without = (body: Record<string, any>, path: readonly string[]): Record<string, any> => {
  const copy = structuredClone(body);
  const parent = path.slice(0, -1).reduce((node, key) => node[key], copy);
  delete parent[path[path.length - 1]!];
  return copy;
};

describe('modes that refuse what a must-accept body must not send', () => {
  it('key-hash-unique refuses a second key with the same keyIdHash (409), and takes a fresh one', async () => {
    await withTarget({ modes: ['key-hash-unique'] }, async (t) => {
      const [body] = fc.sample(keyCreateBody(), { seed: 3, numRuns: 1 });
      const statuses = [];
      for (const name of ['first', 'again']) {
        statuses.push((await send(t, 'management', paths(t).keys, { method: 'POST', body: { ...body, name } })).status);
      }
      const [other] = fc.sample(keyCreateBody(), { seed: 4, numRuns: 1 });
      statuses.push((await send(t, 'management', paths(t).keys, { method: 'POST', body: other })).status);
      expect(statuses).toEqual([200, 409, 200]);
    });
  });

  it("table-definition-columns refuses columns that drop one the pipe's tableDefinition names", async () => {
    await withTarget({ modes: ['table-definition-columns'] }, async (t) => {
      const [body] = fc.sample(pipeCreateBody({ kind: 'broker' }), { seed: 5, numRuns: 1 });
      const created = await send(t, 'management', paths(t).pipes, { method: 'POST', body });
      const pipe = paths(t).pipe(created.json.result.id);
      const columns = [{ name: 'fresh_column', type: 'String' }];
      const mappings = [{ sourceField: 'x', destinationField: 'fresh_column' }];
      const dropped = await send(t, 'management', pipe, {
        method: 'PATCH',
        body: { destination: { columns }, fieldMappings: mappings },
      });
      expect(dropped.status).toBe(400);
      expect(dropped.text).toContain(`refers to '`);
      const kept = body!.destination.columns;
      const keeping = await send(t, 'management', pipe, {
        method: 'PATCH',
        body: {
          destination: { columns: [...kept, ...columns] },
          fieldMappings: [...body!.fieldMappings, ...mappings],
        },
      });
      expect(keeping.status).toBe(200);
    });
  });

  it('alert-source-kind refuses a switch to search that sends a dashboard and tile', async () => {
    await withTarget({ modes: ['alert-source-kind'] }, async (t) => {
      const [alert] = (await listedAlerts(t)).filter((a) => a.source === 'tile');
      const [body] = fc.sample(alertUpdateBody({ interval: alert!.interval, references: referencesOf([alert!]) }), {
        seed: 6,
        numRuns: 1,
      });
      const put = (json: unknown) => send(t, 'alerts', `/api/v2/alerts/${alert!.id}`, { method: 'PUT', body: json });
      expect([(await put({ ...body, source: 'search' })).status, (await put(body)).status]).toEqual([400, 200]);
    });
  });

  it('usage-utc-days accepts 30 days and a part of a day, and refuses 31 days', async () => {
    await withTarget({ modes: ['usage-utc-days'] }, async (t) => {
      const status = async (from: string, to: string) => (await send(t, 'management', paths(t).usage(from, to))).status;
      expect([
        await status('2026-01-01T00:00:00Z', '2026-01-31T00:00:00Z'),
        await status('2026-01-01T00:00:00Z', '2026-01-31T23:59:59Z'),
        await status('2026-01-01T23:00:00Z', '2026-02-01T00:00:00Z'),
      ]).toEqual([200, 200, 400]);
    });
  });
});

describe('mode strict-bodies', () => {
  const SEEDS = [1, 2];

  it(
    "accepts every complete body the must-accept generators send, for every source kind, with the alert's " +
      'own interval',
    async () => {
      await withTarget({ modes: ['strict-bodies'] }, async (t) => {
        const p = paths(t);
        const statuses: string[] = [];
        for (const seed of SEEDS) {
          for (const kind of PIPE_KINDS) {
            for (const body of fc.sample(pipeCreateBody({ kind }), { seed, numRuns: 8 })) {
              const created = await send(t, 'management', p.pipes, { method: 'POST', body });
              statuses.push(`create ${kind} ${created.status} ${created.json?.error ?? ''}`);
              if (created.status !== 200) continue;
              const pipe = created.json.result;
              const [update] = fc.sample(
                pipeUpdateBody({
                  kind,
                  columns: pipe.destination.columns.map((c: any) => c.name),
                  tableMappings: pipe.source.relational?.tableMappings,
                }),
                { seed, numRuns: 1 },
              );
              const updated = await send(t, 'management', p.pipe(pipe.id), { method: 'PATCH', body: update });
              statuses.push(`update ${kind} ${updated.status} ${updated.json?.error ?? ''}`);
            }
          }
          for (const expiry of ['withinDay', 'never'] as const) {
            for (const body of fc.sample(keyCreateBody({ expiry }), { seed, numRuns: 8 })) {
              const created = await send(t, 'management', p.keys, { method: 'POST', body });
              statuses.push(`key ${created.status} ${created.json?.error ?? ''}`);
            }
          }
          const alerts = await listedAlerts(t);
          const references = referencesOf(alerts);
          for (const alert of alerts.filter((a) => a.source === 'tile')) {
            for (const body of fc.sample(alertUpdateBody({ interval: alert.interval, references }), {
              seed,
              numRuns: 8,
            })) {
              const updated = await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, { method: 'PUT', body });
              statuses.push(`alert ${updated.status} ${updated.json?.message ?? ''}`);
            }
          }
        }
        expect(statuses.filter((line) => !/^\w+( \w+)? 200 $/.test(line))).toEqual([]);
        expect(statuses.length).toBe(SEEDS.length * (4 * 8 * 2 + 2 * 8 + 2 * 8));
      });
    },
  );

  it(
    'rejects with a clear 400 a body that lacks a documented field, and an alert interval its alerts did not ' +
      'use at the start',
    async () => {
      await withTarget({ modes: ['strict-bodies'] }, async (t) => {
        const p = paths(t);
        const [broker] = fc.sample(pipeCreateBody({ kind: 'broker' }), { seed: 3, numRuns: 1 }) as Record<
          string,
          any
        >[];
        const expectRejected = async (reply: Reply, field: string): Promise<void> => {
          expect(reply.status, field).toBe(400);
          expect(reply.json.error ?? reply.json.message, field).toContain(field);
        };
        await expectRejected(
          await send(t, 'management', p.pipes, {
            method: 'POST',
            body: without(broker!, ['source', 'broker', 'schemaRegistry', 'caCertificate']),
          }),
          'source.broker.schemaRegistry.caCertificate',
        );
        await expectRejected(
          await send(t, 'management', p.pipes, {
            method: 'POST',
            body: without(broker!, ['settings', 'engine_max_threads']),
          }),
          'settings.engine_max_threads',
        );
        await expectRejected(
          await send(t, 'management', p.pipes, {
            method: 'POST',
            body: without(broker!, ['source', 'validateSamples']),
          }),
          'source.validateSamples',
        );
        const created = await send(t, 'management', p.pipes, { method: 'POST', body: broker });
        expect(created.status).toBe(200);
        const [update] = fc.sample(
          pipeUpdateBody({ kind: 'broker', columns: created.json.result.destination.columns.map((c: any) => c.name) }),
          { seed: 3, numRuns: 1 },
        ) as Record<string, any>[];
        await expectRejected(
          await send(t, 'management', p.pipe(created.json.result.id), {
            method: 'PATCH',
            body: without(update!, ['source', 'broker', 'iamRole']),
          }),
          'source.broker.iamRole',
        );
        await expectRejected(
          await send(t, 'management', p.pipe(created.json.result.id), { method: 'PATCH', body: { name: 'renamed' } }),
          'settings',
        );
        const [key] = fc.sample(keyCreateBody({ expiry: 'never' }), { seed: 4, numRuns: 1 }) as Record<string, any>[];
        await expectRejected(
          await send(t, 'management', p.keys, { method: 'POST', body: without(key!, ['hashData']) }),
          'hashData',
        );
        await expectRejected(
          await send(t, 'management', p.keys, {
            method: 'POST',
            body: without(key!, ['ipAccessList', '0', 'description']),
          }),
          'ipAccessList[0].description',
        );
        expect(
          (await send(t, 'management', p.keys, { method: 'POST', body: { ...key, expireAt: undefined } })).status,
        ).toBe(200);

        const alerts = await listedAlerts(t);
        const alert = alerts[0]!;
        const [complete] = fc.sample(alertUpdateBody({ interval: alert.interval, references: referencesOf(alerts) }), {
          seed: 5,
          numRuns: 1,
        }) as Record<string, any>[];
        for (const field of [
          'threshold',
          'interval',
          'thresholdType',
          'source',
          'dashboardId',
          'tileId',
          'channel',
          'name',
          'message',
        ]) {
          await expectRejected(
            await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, { method: 'PUT', body: without(complete!, [field]) }),
            field,
          );
        }
        await expectRejected(
          await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, {
            method: 'PUT',
            body: without(complete!, ['channel', 'webhookId']),
          }),
          'channel.webhookId',
        );
        await expectRejected(
          await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, {
            method: 'PUT',
            body: { ...complete, interval: '24h' },
          }),
          'interval',
        );
        expect(
          alerts.filter((a) => a.interval === alert.interval),
          'no other alert has its interval',
        ).toHaveLength(1);
        const other = alerts.find((a) => a.interval !== alert.interval)!;
        expect(
          (
            await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, {
              method: 'PUT',
              body: { ...complete, interval: other.interval },
            })
          ).status,
        ).toBe(200);
        expect(
          (
            await send(t, 'alerts', `/api/v2/alerts/${alert.id}`, {
              method: 'PUT',
              body: { ...complete, interval: alert.interval },
            })
          ).status,
          'put back to an interval no stored alert has now',
        ).toBe(200);
      });
    },
  );

  it(
    'rejects observe bodies (partial, other intervals) that the clean target accepts, and accepts none the ' +
      'clean target rejects',
    async () => {
      const observe = async (t: ReferenceTarget): Promise<number[]> => {
        const p = paths(t);
        const alerts = await listedAlerts(t);
        const statuses: number[] = [];
        for (const body of fc.sample(pipeCreateBodyObserve({ kind: 'stream' }), { seed: 6, numRuns: 8 }))
          statuses.push((await send(t, 'management', p.pipes, { method: 'POST', body })).status);
        for (const body of fc.sample(keyCreateBodyObserve(), { seed: 6, numRuns: 8 }))
          statuses.push((await send(t, 'management', p.keys, { method: 'POST', body: { name: 'k', ...body } })).status);
        for (const body of fc.sample(alertUpdateBodyObserve({ references: referencesOf(alerts) }), {
          seed: 6,
          numRuns: 8,
        })) {
          statuses.push((await send(t, 'alerts', `/api/v2/alerts/${alerts[0]!.id}`, { method: 'PUT', body })).status);
        }
        return statuses;
      };
      let clean: number[] = [];
      await withTarget({}, async (t) => {
        clean = await observe(t);
      });
      await withTarget({ modes: ['strict-bodies'] }, async (t) => {
        const strict = await observe(t);
        expect([...clean, ...strict].filter((s) => s !== 200 && s !== 400)).toEqual([]);
        expect(strict.filter((s, i) => s === 200 && clean[i] !== 200)).toEqual([]);
        const newlyRejected = strict.filter((s, i) => s === 400 && clean[i] === 200).length;
        expect(newlyRejected).toBeGreaterThan(strict.length / 4);
      });
    },
  );
});

describe('faults of issue 10', () => {
  it(
    'keys-hash-data-drops-secrets: a key created with hashData comes back without keyId and keySecret; ' +
      'without hashData, and on the clean target, with them',
    async () => {
      const [withHashes] = fc.sample(keyCreateBody(), { seed: 8, numRuns: 1 });
      const { hashData: _hashes, ...withoutHashes } = withHashes!;
      await withTarget({ faults: ['keys-hash-data-drops-secrets'] }, async (t) => {
        const dropped = await send(t, 'management', paths(t).keys, { method: 'POST', body: withHashes });
        expect(dropped.status).toBe(200);
        expect(dropped.json.result).not.toHaveProperty('keyId');
        expect(dropped.json.result).not.toHaveProperty('keySecret');
        expect(dropped.json.result.key.name).toBe(withHashes!.name);
        const kept = await send(t, 'management', paths(t).keys, { method: 'POST', body: withoutHashes });
        expect(kept.json.result).toMatchObject({ keyId: expect.any(String), keySecret: expect.any(String) });
      });
      await withTarget({}, async (t) => {
        const reply = await send(t, 'management', paths(t).keys, { method: 'POST', body: withHashes });
        expect(reply.json.result).toMatchObject({ keyId: expect.any(String), keySecret: expect.any(String) });
      });
    },
  );

  it(
    'alerts-dashboard-non-hex-500: a dashboardId that is not 24 hex digits gets a 500, a 24-hex one a 200; ' +
      'the clean target accepts both',
    async () => {
      const update = (t: ReferenceTarget, dashboardId: string): Promise<Reply> =>
        send(t, 'alerts', `/api/v2/alerts/${t.alertIds[0]}`, { method: 'PUT', body: { dashboardId } });
      await withTarget({ faults: ['alerts-dashboard-non-hex-500'] }, async (t) => {
        for (const id of ['dash-1', '', 'ダッシュボード', '65a1b2c3d4e5f60718293a4'])
          expect((await update(t, id)).status, id).toBe(500);
        expect((await update(t, '65a1b2c3d4e5f60718293a4b')).status).toBe(200);
        expect(
          (
            await send(t, 'alerts', `/api/v2/alerts/${t.alertIds[0]}`, {
              method: 'PUT',
              body: { name: 'no dashboard' },
            })
          ).status,
        ).toBe(200);
      });
      await withTarget({}, async (t) => {
        for (const id of ['dash-1', '', '65a1b2c3d4e5f60718293a4b']) expect((await update(t, id)).status, id).toBe(200);
      });
    },
  );

  it(
    'auth-ignored-on-pipe-settings: the settings read answers without credentials, every other operation ' +
      'still refuses; the clean target refuses it',
    async () => {
      const probe = async (t: ReferenceTarget): Promise<{ settings: number[]; others: number[] }> => {
        const created = await send(t, 'management', paths(t).pipes, {
          method: 'POST',
          body: pipeBody('stream', 'auth'),
        });
        const pipeId = created.json.result.id;
        const settings = [];
        for (const auth of ['none', 'wrong', 'bearer'] as const)
          settings.push((await send(t, 'management', paths(t).settings(pipeId), { auth })).status);
        const others = [];
        for (const [operation, path, options] of managementCalls(t, pipeId))
          if (operation !== 'getPipeSettings')
            others.push((await send(t, 'management', path, { ...options, auth: 'none' })).status);
        return { settings, others };
      };
      await withTarget({ faults: ['auth-ignored-on-pipe-settings'] }, async (t) => {
        expect(await probe(t)).toEqual({ settings: [200, 200, 200], others: [401, 401, 401, 401, 401, 401] });
      });
      await withTarget({}, async (t) => {
        expect(await probe(t)).toEqual({ settings: [401, 401, 401], others: [401, 401, 401, 401, 401, 401] });
      });
    },
  );
});

describe('runReference', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    return {
      out,
      err,
      stop: () => stop(),
      io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), stopped: () => stopped },
    };
  };

  it('lists the tables, refuses bad arguments with exit code 2, and prints exports until stopped', async () => {
    const listing = io();
    expect(await runReference(['--list'], listing.io)).toBe(0);
    expect(listing.out.join('\n')).toContain('usage-accepts-31-days');
    for (const argv of [['--bogus'], ['--fault'], ['--management-port', 'x'], ['--fault', 'nope']]) {
      const bad = io();
      expect(await runReference(argv, bad.io), argv.join(' ')).toBe(2);
      expect(bad.err).toHaveLength(1);
    }
    const running = io();
    const done = runReference(['--mode', 'slow', '--fault=envelope-status-201'], running.io);
    await waitFor(() => running.out.length === 13);
    const env = Object.fromEntries(running.out.map((line) => /^export (\w+)=(.*)$/.exec(line)!.slice(1)));
    expect(Object.keys(env).sort()).toEqual([
      'ALERTS_BASE_URL',
      'ALERTS_TOKEN',
      'ALERT_ID',
      'BACKUP_ID',
      'MANAGEMENT_BASE_URL',
      'MANAGEMENT_KEY_ID',
      'MANAGEMENT_KEY_SECRET',
      'ORGANIZATION_ID',
      'OTHER_ALERTS_TOKEN',
      'OTHER_MANAGEMENT_KEY_ID',
      'OTHER_MANAGEMENT_KEY_SECRET',
      'OTHER_ORGANIZATION_ID',
      'SERVICE_ID',
    ]);
    const service = `${env.MANAGEMENT_BASE_URL}/v1/organizations/${env.ORGANIZATION_ID}/services/${env.SERVICE_ID}`;
    const credentials = `${env.MANAGEMENT_KEY_ID}:${env.MANAGEMENT_KEY_SECRET}`;
    const reply = await fetch(`${service}/backups/${env.BACKUP_ID}`, {
      headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
    });
    expect(((await reply.json()) as { status: number }).status).toBe(201);
    running.stop();
    expect(await done).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
