import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { JsonObject } from './json.ts';

/** The four kinds of pipe source. */
export const SOURCE_KINDS = Object.freeze(['broker', 'objectStorage', 'stream', 'relational'] as const);

/** A kind of pipe source. */
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A stored pipe; records are replaced, never changed in place. */
export interface PipeRecord {
  readonly id: string;
  readonly serviceId: string;
  readonly name: string;
  readonly state: string;
  readonly scaling: JsonObject;
  readonly kind: SourceKind;
  /** The fields of `source[kind]` that responses may carry (no secrets). */
  readonly source: JsonObject;
  readonly destination: JsonObject;
  readonly fieldMappings: JsonObject[];
  readonly settings: JsonObject;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A stored API key of the management API; only a hash of its secret is kept. */
export interface KeyRecord {
  readonly id: string;
  /** The organization it belongs to, the only one it may act on. */
  readonly organizationId: string;
  readonly keyId: string;
  readonly secretHash: Buffer;
  readonly name: string;
  readonly roles: string[];
  readonly state: 'enabled' | 'disabled';
  readonly expireAt: string | null;
  readonly createdAt: string;
  readonly ipAccessList: JsonObject[];
  readonly usedAt?: string;
}

/** A stored alert, as the alerts API names its fields. */
export interface AlertRecord {
  readonly id: string;
  readonly name: string;
  readonly message: string;
  readonly threshold: number;
  readonly interval: string;
  readonly thresholdType: string;
  readonly source: string;
  readonly state: string;
  readonly channel: { readonly type: string; readonly webhookId: string };
  readonly team: string;
  readonly tileId: string;
  readonly dashboard: string;
  readonly savedSearch: string;
  readonly groupBy: string;
  readonly silenced: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An organization of the target: its one service and backup, and the root key it was seeded with. */
export interface Organization {
  readonly organizationId: string;
  readonly serviceId: string;
  readonly backupId: string;
  readonly managementKeyId: string;
  readonly managementKeySecret: string;
  /** The service record, every field of the Service table plus its `state`. */
  service: JsonObject;
  readonly backup: JsonObject;
}

/** A team of the alerts API: its token, and the `team` of its alerts. */
export interface Team {
  readonly team: string;
  readonly alertsToken: string;
}

/**
 * The whole in-memory state of one running target, which is the run's organization and team; `other` and
 * `otherTeam` are a second organization and team that the run's credentials must not reach, and whose credentials
 * must not reach the run's. Maps hold the records of both, keyed by lower-case id.
 */
export interface Store extends Organization, Team {
  readonly other: Organization;
  readonly otherTeam: Team;
  readonly pipes: Map<string, PipeRecord>;
  readonly keys: Map<string, KeyRecord>;
  readonly alerts: Map<string, AlertRecord>;
}

/** Hashes a key secret for storage and comparison. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** A fresh key id: url-safe, without `:` so that it fits in Basic credentials. */
export function newKeyId(): string {
  return randomBytes(15).toString('base64url');
}

/** A fresh key secret. */
export function newKeySecret(): string {
  return randomBytes(30).toString('base64url');
}

/** The two organizations of a store: the run's, then the other. */
export function organizationsOf(store: Store): readonly Organization[] {
  return [store, store.other];
}

/** The two teams of a store: the run's, then the other. */
export function teamsOf(store: Store): readonly Team[] {
  return [store, store.otherTeam];
}

/**
 * Creates the seeded state: two organizations, each with a service, a backup and a root key, and two teams, the run's
 * with four alerts and the other with two.
 */
export function createStore(now: Date = new Date()): Store {
  const created = new Date(now.getTime() - 90 * 86_400_000).toISOString();
  const keys = new Map<string, KeyRecord>();
  const own = seedOrganization(now, created, keys);
  const other = seedOrganization(now, created, keys);
  const team = { team: hexId(), alertsToken: randomBytes(24).toString('base64url') };
  const otherTeam = { team: hexId(), alertsToken: randomBytes(24).toString('base64url') };
  const alerts = new Map<string, AlertRecord>();
  for (const alert of seedAlerts(created, team.team)) alerts.set(alert.id, alert);
  for (const alert of seedAlerts(created, otherTeam.team).slice(0, 2)) alerts.set(alert.id, alert);
  return { ...own, ...team, other, otherTeam, pipes: new Map(), keys, alerts };
}

/** An organization with its service, backup and root key, which is added to `keys`. */
function seedOrganization(now: Date, created: string, keys: Map<string, KeyRecord>): Organization {
  const organizationId = randomUUID();
  const serviceId = randomUUID();
  const backupId = randomUUID();
  const managementKeyId = newKeyId();
  const managementKeySecret = newKeySecret();
  keys.set(managementKeyId, {
    id: randomUUID(),
    organizationId,
    keyId: managementKeyId,
    secretHash: hashSecret(managementKeySecret),
    name: 'reference root key',
    roles: ['admin'],
    state: 'enabled',
    expireAt: null,
    createdAt: created,
    ipAccessList: [],
  });
  return {
    organizationId,
    serviceId,
    backupId,
    managementKeyId,
    managementKeySecret,
    service: seedService(serviceId, created),
    backup: seedBackup(backupId, serviceId, now),
  };
}

function seedService(id: string, createdAt: string): JsonObject {
  const host = `${id.slice(0, 8)}.reference.invalid`;
  return {
    id,
    name: 'reference-service',
    engineVersion: '24.8',
    endpoints: [
      { protocol: 'nativesecure', host, port: 9440, username: 'default' },
      { protocol: 'https', host, port: 8443, username: 'default' },
    ],
    minTotalMemoryGb: 24,
    maxTotalMemoryGb: 48,
    minReplicaMemoryGb: 8,
    maxReplicaMemoryGb: 16,
    numReplicas: 3,
    idleScaling: true,
    idleTimeoutMinutes: 15,
    ipAccessList: [{ source: '0.0.0.0/0', description: 'anywhere' }],
    createdAt,
    encryptionKey: 'arn:aws:kms:us-east-1:000000000000:key/reference',
    encryptionAssumedRoleIdentifier: 'arn:aws:iam::000000000000:role/reference-encryption',
    iamRole: 'arn:aws:iam::000000000000:role/reference-service',
    privateEndpointIds: [],
    availablePrivateEndpointIds: ['vpce-0reference'],
    dataWarehouseId: randomUUID(),
    isPrimary: true,
    isReadonly: false,
    byocId: 'byoc-reference',
    hasTransparentDataEncryption: true,
    transparentDataEncryptionKeyId: 'tde-reference',
    encryptionRoleId: 'encryption-role-reference',
    state: 'running',
  };
}

function seedBackup(id: string, serviceId: string, now: Date): JsonObject {
  const finished = new Date(now.getTime() - 3_600_000);
  const started = new Date(finished.getTime() - 754_000);
  return {
    id,
    serviceId,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    sizeInBytes: 52_428_800,
    durationInSeconds: 754,
    backupName: `backup-${started.toISOString().slice(0, 10)}`,
    bucket: {
      bucketPath: 's3://reference-backups/service',
      iamRoleArn: 'arn:aws:iam::000000000000:role/reference-backup',
      iamRoleSessionName: 'reference-backup-session',
    },
  };
}

function seedAlerts(createdAt: string, team: string): AlertRecord[] {
  const common = { state: 'OK', team, createdAt, updatedAt: createdAt, silenced: false };
  return [
    {
      ...common,
      id: hexId(),
      name: 'High error rate',
      message: 'Errors above threshold',
      threshold: 100,
      interval: '5m',
      thresholdType: 'above',
      source: 'tile',
      channel: { type: 'webhook', webhookId: hexId() },
      tileId: 'tile-errors',
      dashboard: hexId(),
      savedSearch: '',
      groupBy: '',
    },
    {
      ...common,
      id: hexId(),
      name: 'Low throughput',
      message: 'Throughput dropped',
      threshold: 10,
      interval: '1h',
      thresholdType: 'below',
      source: 'tile',
      channel: { type: 'webhook', webhookId: hexId() },
      tileId: 'tile-throughput',
      dashboard: hexId(),
      savedSearch: '',
      groupBy: 'service',
    },
    {
      ...common,
      id: hexId(),
      name: 'Payment failures',
      message: 'Payments failing',
      threshold: 5,
      interval: '15m',
      thresholdType: 'above',
      source: 'search',
      channel: { type: 'webhook', webhookId: hexId() },
      tileId: '',
      dashboard: '',
      savedSearch: hexId(),
      groupBy: 'host',
    },
    {
      ...common,
      id: hexId(),
      name: 'Quiet logs',
      message: 'Log volume too low',
      threshold: 1,
      interval: '1h',
      thresholdType: 'below',
      source: 'search',
      channel: { type: 'webhook', webhookId: hexId() },
      tileId: '',
      dashboard: '',
      savedSearch: hexId(),
      groupBy: '',
      silenced: true,
    },
  ];
}

function hexId(): string {
  return randomBytes(12).toString('hex');
}
