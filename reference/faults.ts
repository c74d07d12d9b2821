import { randomBytes, randomUUID } from 'node:crypto';
import { type Fault, statefulFault } from './fault.ts';
import type { HookContext, Hooks, OperationId } from './hooks.ts';
import { copyJson, isObject, type Json, type JsonObject } from './json.ts';
import { CREATE_PIPE_SPEC, DEFAULT_SCALING, DEFAULT_SETTINGS, UPDATE_PIPE_SPEC } from './pipe-spec.ts';
import type { FieldSpec } from './validate.ts';
import { UPDATE_ALERT_SPEC } from './alerts.ts';
import { KEY_ROLES, KEY_SPEC } from './keys.ts';
import { problem, type Problem, type ProblemCode } from './problem.ts';
import type { RuleId } from './rule-id.ts';
import { DAY_MS, formatDay } from './timestamp.ts';
import { costEntry, MAX_PERIOD_MS, totalOf, usagePeriod } from './usage.ts';
import { selectNamed } from './named.ts';
import type { AlertRecord, PipeRecord, Store } from './store.ts';
import { sameTableKey, withTableMappings } from './table-mappings.ts';
import { alertUpdateFieldByField, keyIdsFromClock, pipeUpdateLost } from './writes-at-once.ts';
import { CREDENTIAL_FAULTS } from './credential-faults.ts';
import { TIMESTAMP_FAULTS } from './timestamp-faults.ts';

/** Every operation of the management API. */
const MANAGEMENT: readonly OperationId[] = Object.freeze([
  'createPipe',
  'updatePipe',
  'getPipeSettings',
  'changeServiceState',
  'createKey',
  'getUsageCost',
  'getBackup',
]);

/**
 * What a fault that leaves an update unstored (or lost) also fails on some seeds: a later update removes table mappings
 * drawn against the pipe that update left, and its answer, built on what was stored, may still show one it removes.
 */
const UNSTORED_MAPPINGS = Object.freeze({
  rule: 'pipes.update-applies',
  on: Object.freeze(['updatePipe'] as const),
  sometimes: true,
} as const);

/**
 * What a fault of every update, whatever its timing, also fails through the sequences' writes sent at once: no order of
 * those writes explains an update lost, unstored or misanswered. Only the sequences that reach such a step show it, so
 * it is `sometimes`; a settings read after such a step shows the pipe-update faults on every seed.
 */
const THROUGH_WRITES_AT_ONCE: Readonly<Record<string, NonNullable<Fault['also']>>> = {
  'pipe-update-ignored': [
    { rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true },
    { rule: 'pipes.update-applies', on: ['getPipeSettings'] },
  ],
  'pipe-update-not-persisted': [{ rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true }],
  'pipe-update-stored-once': [{ rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true }],
  'pipe-settings-read-other-pipe': [{ rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true }],
  'settings-key-missing': [{ rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true }],
  'numbers-int32': [{ rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true }],
  'alerts-update-not-listed': [{ rule: 'alerts.concurrent-updates', on: ['updateAlert'], sometimes: true }],
  'alerts-update-unwrapped': [{ rule: 'alerts.concurrent-updates', on: ['updateAlert'], sometimes: true }],
  'alerts-dashboard-ignored': [{ rule: 'alerts.concurrent-updates', on: ['updateAlert'], sometimes: true }],
  // The observed updates of the alert go at once: a mix of two shows in the answer of one of them.
  'alert-update-field-by-field': [
    { rule: 'alerts.update-applies', on: ['updateAlert'], sometimes: true },
    { rule: 'alerts.dashboard-mapping', on: ['updateAlert'], sometimes: true },
    // Its field-by-field writes of updates sent at once may list an updatedAt before one an answer showed.
    { rule: 'timestamps.consistent', on: ['updateAlert', 'listAlerts'], sometimes: true },
  ],
};

/** The fault table; each fault changes exactly one behaviour of the otherwise correct target. */
export const FAULTS: readonly Fault[] = Object.freeze(
  [
    // Authentication.
    fault(
      'auth-missing-accepted',
      'management API answers requests that carry no Authorization header',
      ['auth.required'],
      MANAGEMENT,
      {
        authorize: (ctx, v) => (ctx.api === 'management' && v.scheme === 'none' ? { ...v, accepted: true } : v),
      },
    ),
    fault('auth-any-secret', 'management API accepts any secret for a known key id', ['auth.required'], MANAGEMENT, {
      authorize: (ctx, v) => (ctx.api === 'management' && v.knownKey ? { ...v, accepted: true } : v),
    }),
    fault(
      'auth-bearer-on-management',
      'management API accepts any Bearer token instead of Basic credentials',
      ['auth.required'],
      MANAGEMENT,
      {
        authorize: (ctx, v) => (ctx.api === 'management' && v.scheme === 'bearer' ? { ...v, accepted: true } : v),
      },
    ),
    fault(
      'auth-basic-on-alerts',
      'alerts API accepts any Basic credentials instead of its Bearer token',
      ['auth.required'],
      ['updateAlert', 'listAlerts'],
      {
        authorize: (ctx, v) => (ctx.api === 'alerts' && v.scheme === 'basic' ? { ...v, accepted: true } : v),
      },
    ),
    fault(
      'auth-ignored-on-pipe-settings',
      'the pipe settings read answers without checking credentials',
      ['auth.required'],
      ['getPipeSettings'],
      {
        authorize: (ctx, v) => (ctx.operation === 'getPipeSettings' ? { ...v, accepted: true } : v),
      },
    ),
    fault(
      'credentials-ignored',
      "both APIs ignore credentials: every request, with any credentials or none, acts as the run's own key and token",
      ['auth.required', 'access.other-tenant', 'keys.state-honoured'],
      [...MANAGEMENT, 'updateAlert', 'listAlerts'],
      {
        authorize: (_ctx, v) => ({ accepted: true, scheme: v.scheme, knownKey: v.knownKey }),
      },
    ),
    validateSamplesRefused(
      'validate-samples-refused',
      'a pipe create whose source carries validateSamples (a documented field) is rejected with 400',
      'validateSamples is not supported',
    ),
    fault('auth-alerts-list-any-token', 'the alert list accepts any Bearer token', ['auth.required'], ['listAlerts'], {
      authorize: (ctx, v) => (ctx.operation === 'listAlerts' && v.scheme === 'bearer' ? { ...v, accepted: true } : v),
    }),

    // Envelope and transport.
    fault('request-id-not-uuid', 'requestId is 32 hex digits, not a uuid', ['envelope.request-id-v4'], MANAGEMENT, {
      requestId: () => randomBytes(16).toString('hex'),
    }),
    fault('request-id-v1', 'requestId is a version-1 uuid', ['envelope.request-id-v4'], MANAGEMENT, {
      requestId: () => uuidV1(),
    }),
    statefulFault(
      'request-id-reused',
      'the second successful pipe create reuses the requestId of the first',
      ['envelope.request-id-unique'],
      ['createPipe'],
      () => {
        const seen: string[] = [];
        return {
          requestId: (ctx, requestId, success) => {
            if (!success || ctx.operation !== 'createPipe') return requestId;
            seen.push(requestId);
            return seen.length === 2 ? (seen[0] ?? requestId) : requestId;
          },
        };
      },
    ),
    fault(
      'envelope-without-result',
      'the usage cost envelope carries its result under `data` instead of `result`',
      ['envelope.shape'],
      ['getUsageCost'],
      {
        envelope: (ctx, e) => {
          if (ctx.operation !== 'getUsageCost') return e;
          const { result, ...rest } = e;
          return { ...rest, data: result };
        },
      },
    ),
    fault(
      'envelope-status-201',
      'the envelope status is 201 while the HTTP status is 200',
      ['envelope.status-matches-http'],
      MANAGEMENT,
      {
        envelope: (_ctx, e) => ({ ...e, status: 201 }),
      },
    ),
    fault(
      'backup-text-plain',
      'the backup read answers its JSON as text/plain',
      ['response.content-type'],
      ['getBackup'],
      {
        response: (ctx, o) =>
          ctx.operation === 'getBackup' && o.status === 200
            ? { ...o, headers: { ...o.headers, 'content-type': 'text/plain; charset=utf-8' } }
            : o,
      },
    ),
    fault('settings-hang', 'the settings read never answers', ['transport.answers'], ['getPipeSettings'], {
      response: (ctx, o) => (ctx.operation === 'getPipeSettings' ? { ...o, delivery: 'hang' } : o),
    }),
    fault(
      'backup-connection-reset',
      'the backup read closes the connection without an answer',
      ['transport.answers'],
      ['getBackup'],
      {
        response: (ctx, o) => (ctx.operation === 'getBackup' ? { ...o, delivery: 'reset' } : o),
      },
    ),
    fault(
      'malformed-json-500',
      'a body that is not JSON gets a 500',
      ['errors.client-not-server'],
      ['createPipe', 'updatePipe', 'changeServiceState', 'createKey', 'updateAlert'],
      {
        review: (_ctx, problems) => {
          if (problems.some((p) => p.code === 'malformed-json')) throw new SyntaxError('unexpected token in JSON body');
          return problems;
        },
      },
    ),

    // Secrets.
    fault(
      'broker-credentials-echoed',
      'pipe create echoes source.broker.credentials',
      ['secrets.absent'],
      ['createPipe'],
      {
        result: (ctx, r) => echo(ctx, 'createPipe', r, ['broker', 'credentials'], ['broker', 'credentials']),
      },
    ),
    fault(
      'schema-registry-credentials-echoed',
      'pipe create echoes source.broker.schemaRegistry.credentials',
      ['secrets.absent'],
      ['createPipe'],
      {
        result: (ctx, r) =>
          echo(
            ctx,
            'createPipe',
            r,
            ['broker', 'schemaRegistry', 'credentials'],
            ['broker', 'schemaRegistry', 'credentials'],
          ),
      },
    ),
    fault(
      'relational-password-as-note',
      'pipe create of a relational source returns the password as source.relational.note',
      ['secrets.absent'],
      ['createPipe'],
      {
        result: (ctx, r) =>
          echo(ctx, 'createPipe', r, ['relational', 'credentials', 'password'], ['relational', 'note']),
      },
    ),
    fault(
      'access-key-echoed-on-update',
      'pipe update echoes the accessKey of an objectStorage or stream source',
      ['secrets.absent'],
      ['updatePipe'],
      {
        result: (ctx, r) =>
          echo(
            ctx,
            'updatePipe',
            echo(ctx, 'updatePipe', r, ['objectStorage', 'accessKey'], ['objectStorage', 'accessKey']),
            ['stream', 'accessKey'],
            ['stream', 'accessKey'],
          ),
      },
    ),
    fault(
      'secret-in-header',
      'pipe create returns the first password or secretKey sent in an X-Source-Secret header',
      ['secrets.absent'],
      ['createPipe'],
      {
        response: (ctx, o) => {
          const secret = ctx.operation === 'createPipe' && o.status === 200 ? firstSecret(ctx.input) : undefined;
          return secret === undefined ? o : { ...o, headers: { ...o.headers, 'x-source-secret': secret } };
        },
      },
    ),

    fault(
      'secret-base64-leak',
      'pipe create answers the schema registry credentials as an authorization header: Basic, base64 of ' +
        'username:password',
      ['secrets.absent'],
      ['createPipe'],
      {
        response: (ctx, o) => {
          const sent = at(field(ctx.input, 'source'), ['broker', 'schemaRegistry', 'credentials']);
          if (ctx.operation !== 'createPipe' || o.status !== 200 || !isObject(sent)) return o;
          const basic = Buffer.from(`${String(sent.username)}:${String(sent.password)}`).toString('base64');
          return { ...o, headers: { ...o.headers, authorization: `Basic ${basic}` } };
        },
      },
    ),
    fault(
      'secret-percent-leak',
      'pipe create of a relational source answers its connection string, username and password percent-encoded, ' +
        'in an X-Connection-String header',
      ['secrets.absent'],
      ['createPipe'],
      {
        response: (ctx, o) => {
          const relational = at(field(ctx.input, 'source'), ['relational']);
          const sent = at(relational, ['credentials']);
          if (ctx.operation !== 'createPipe' || o.status !== 200 || !isObject(sent)) return o;
          const user = encodeURIComponent(String(sent.username));
          const password = encodeURIComponent(String(sent.password));
          // Every part encoded, as a header holds no control character (an odd value in the database name would
          // otherwise make the fault's own answer fail).
          const [host, port, database] = ['host', 'port', 'database'].map((part) =>
            encodeURIComponent(String(at(relational, [part]))),
          );
          const url = `postgres://${user}:${password}@${host}:${port}/${database}`;
          return { ...o, headers: { ...o.headers, 'x-connection-string': url } };
        },
      },
    ),

    // Scope: the path's organization and service, the credential's organization and team, fields only the server
    // writes. Each breaks a rule whose probes come with the access groups.
    // Acting on the key's own organization whatever the path names, it also takes another organization's key on the
    // run's organization where no service or pipe of the path gives it away (a key create, the usage read).
    statefulFault(
      'organization-ignored',
      "management API takes any organizationId in the path as the key's own",
      ['access.path-scoped', 'access.other-tenant'],
      ['createKey', 'getUsageCost'],
      () => ({ scope: (_ctx, p) => ({ ...p, organization: false }) }),
      [
        {
          rule: 'access.path-scoped',
          on: ['createPipe', 'updatePipe', 'getPipeSettings', 'changeServiceState', 'getBackup'],
        },
      ],
    ),
    // A pipe created or updated under another service answers with the pipe's own serviceId, not the path's.
    statefulFault(
      'pipe-any-service',
      'pipe create, update and settings read work under any serviceId of the organization',
      ['access.path-scoped', 'pipes.service-id'],
      ['createPipe', 'updatePipe'],
      () => ({ scope: (_ctx, p) => ({ ...p, pipeService: false }) }),
      [{ rule: 'access.path-scoped', on: ['getPipeSettings'] }],
    ),
    // The backup read under another service answers the backup with its own serviceId, not the path's.
    fault(
      'backup-any-service',
      'the backup read answers under any serviceId of the organization',
      ['access.path-scoped', 'backups.identity'],
      ['getBackup'],
      { scope: (_ctx, p) => ({ ...p, backupService: false }) },
    ),
    fault(
      'other-org-key-accepted',
      "a key of another organization acts on this organization's paths",
      ['access.other-tenant'],
      MANAGEMENT,
      { scope: (_ctx, p) => ({ ...p, keyOrganization: false }) },
    ),
    fault(
      'other-team-token-reads',
      "another team's token lists and updates this team's alerts",
      ['access.other-tenant'],
      ['updateAlert', 'listAlerts'],
      { scope: (_ctx, p) => ({ ...p, team: false }) },
    ),
    statefulFault(
      'team-assignable',
      'an alert update may set `team`, and the alert moves to that team',
      ['access.read-only-fields'],
      ['updateAlert'],
      (store) => ({
        review: (ctx, problems) =>
          ctx.operation === 'updateAlert'
            ? problems.filter((p) => !(p.code === 'unknown-field' && p.path === 'team'))
            : problems,
        result: (ctx, r) => {
          const team = field(ctx.input, 'team');
          const alert = store.alerts.get((ctx.params.id ?? '').toLowerCase());
          if (ctx.operation !== 'updateAlert' || typeof team !== 'string' || !isObject(r.data) || !alert) return r;
          store.alerts.set(alert.id, { ...alert, team });
          return { ...r, data: { ...r.data, team } };
        },
      }),
      // The list after it no longer shows the alert to its own team.
      [{ rule: 'access.read-only-fields', on: ['listAlerts'] }],
    ),
    fault(
      'pipe-id-assignable',
      'a pipe create or update may set `id`, which the answer carries',
      ['access.read-only-fields'],
      ['createPipe', 'updatePipe'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'createPipe' || ctx.operation === 'updatePipe'
            ? problems.filter((p) => !(p.code === 'unknown-field' && p.path === 'id'))
            : problems,
        result: (ctx, r) => {
          const id = field(ctx.input, 'id');
          return (ctx.operation === 'createPipe' || ctx.operation === 'updatePipe') && typeof id === 'string'
            ? { ...r, id }
            : r;
        },
      },
    ),

    // Pipes.
    fault(
      'field-mappings-unchecked',
      'pipe create accepts fieldMappings that miss a destination column',
      ['pipes.field-mappings-cover-columns'],
      ['createPipe'],
      {
        review: (ctx, problems) => (ctx.operation === 'createPipe' ? drop(problems, 'unmapped-column') : problems),
      },
    ),
    fault(
      'pipe-service-id-wrong',
      'pipe create and update return a serviceId other than the path one',
      ['pipes.service-id'],
      ['createPipe', 'updatePipe'],
      {
        result: (ctx, r) =>
          ctx.operation === 'createPipe' || ctx.operation === 'updatePipe' ? { ...r, serviceId: randomUUID() } : r,
      },
    ),
    fault(
      'pipe-name-changed',
      'pipe create returns the name with " (copy)" appended',
      ['pipes.reflects-request'],
      ['createPipe'],
      {
        result: (ctx, r) => (ctx.operation === 'createPipe' ? { ...r, name: `${String(r.name)} (copy)` } : r),
      },
    ),
    fault(
      'pipe-scaling-ignored',
      'pipe create returns the default scaling whatever was sent',
      ['pipes.reflects-request'],
      ['createPipe'],
      {
        result: (ctx, r) =>
          ctx.operation === 'createPipe' && isObject(ctx.input) && ctx.input.scaling !== undefined
            ? { ...r, scaling: copyJson({ ...DEFAULT_SCALING }) }
            : r,
      },
    ),
    statefulFault(
      'pipe-update-ignored',
      'pipe update changes nothing and returns the pipe as it was',
      ['pipes.update-applies', 'pipes.state-consistent'],
      ['updatePipe'],
      () => ({
        persists: (ctx, p) => (ctx.operation === 'updatePipe' ? false : p),
        result: (ctx, r, previous) => (ctx.operation === 'updatePipe' && previous !== undefined ? previous : r),
      }),
      // A sequence stops at the update's answer, so only the settings reads outside sequences show the update
      // missing: the one after the lifecycle's update, and the one after engine_max_threads alone.
      [
        { rule: 'pipes.update-applies', on: ['getPipeSettings'] },
        { rule: 'pipes.state-consistent', on: ['getPipeSettings'] },
      ],
    ),
    statefulFault(
      'pipe-update-not-persisted',
      'pipe update returns the changed pipe but does not store it, so settings show the old values',
      ['pipes.update-applies', 'pipes.state-consistent'],
      ['getPipeSettings'],
      () => ({ persists: (ctx, p) => (ctx.operation === 'updatePipe' ? false : p) }),
      // A second update's answer shows the fields it did not send as the first update left them only in the model.
      [{ rule: 'pipes.state-consistent', on: ['updatePipe'], sometimes: true }, UNSTORED_MAPPINGS],
    ),
    fault(
      'settings-key-missing',
      'the settings read omits engine_parallel_view_processing',
      ['pipes.settings-keys', 'response.schema', 'pipes.update-applies', 'pipes.state-consistent'],
      ['getPipeSettings'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'getPipeSettings') return r;
          const { engine_parallel_view_processing: _omitted, ...rest } = r;
          return rest;
        },
      },
    ),

    // Service.
    fault(
      'service-start-rejected',
      'the state operation rejects the start command',
      ['service.command', 'request.valid-accepted'],
      ['changeServiceState'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'changeServiceState' && field(ctx.input, 'command') === 'start'
            ? [...problems, problem('command', 'invalid', 'command start is not available')]
            : problems,
      },
    ),
    fault(
      'service-unknown-command-accepted',
      'the state operation accepts any string command, as a restart',
      ['service.command'],
      ['changeServiceState'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'changeServiceState' && typeof field(ctx.input, 'command') === 'string'
            ? drop(problems, 'enum', 'command')
            : problems,
      },
    ),
    fault(
      'service-command-lenient',
      'the state operation reads a command in any case and with spaces at its ends as that command (`START`)',
      ['service.command'],
      ['changeServiceState'],
      {
        review: (ctx, problems) => {
          const command = field(ctx.input, 'command');
          return ctx.operation === 'changeServiceState' &&
            typeof command === 'string' &&
            ['start', 'stop'].includes(command.trim().toLowerCase())
            ? drop(problems, 'enum', 'command')
            : problems;
        },
      },
    ),
    fault(
      'service-id-wrong',
      'the state operation returns a service whose id is not the path serviceId',
      ['service.result-identity'],
      ['changeServiceState'],
      {
        result: (ctx, r) => (ctx.operation === 'changeServiceState' ? { ...r, id: randomUUID() } : r),
      },
    ),

    // Keys.
    fault(
      'keys-empty-roles-accepted',
      'key create accepts an empty roles list',
      ['keys.roles-minimum'],
      ['createKey'],
      {
        review: (ctx, problems) => (ctx.operation === 'createKey' ? drop(problems, 'min-items', 'roles') : problems),
      },
    ),
    fault(
      'keys-unknown-role-accepted',
      'key create accepts and echoes roles outside admin, developer, query_endpoints',
      ['keys.roles-enum', 'response.schema'],
      ['createKey'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'createKey'
            ? problems.filter((p) => !(p.code === 'enum' && p.path.startsWith('roles[')))
            : problems,
      },
    ),
    fault(
      'key-roles-lenient',
      'key create reads a role in any case and with spaces at its ends as that role (`ADMIN`, ` developer`), and ' +
        'echoes the role it read',
      ['keys.roles-enum', 'keys.credentials-returned'],
      ['createKey'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'createKey'
            ? problems.filter((p) => !(p.code === 'enum' && p.path.startsWith('roles[') && lenientRole(ctx, p.path)))
            : problems,
        result: (ctx, r) => {
          const key = ctx.operation === 'createKey' && isObject(r.key) ? r.key : undefined;
          if (!key || !Array.isArray(key.roles)) return r;
          return { ...r, key: { ...key, roles: key.roles.map((role) => folded(role) ?? role) } };
        },
      },
    ),
    fault(
      'keys-empty-roles-crash',
      'key create with an empty roles list fails with a 500',
      ['errors.client-not-server'],
      ['createKey'],
      {
        review: (ctx, problems) => {
          if (ctx.operation === 'createKey' && problems.some((p) => p.code === 'min-items' && p.path === 'roles')) {
            throw new TypeError("Cannot read properties of undefined (reading 'role')");
          }
          return problems;
        },
      },
    ),
    fault(
      'keys-secret-missing',
      'key create does not return keySecret',
      ['keys.credentials-returned', 'response.schema'],
      ['createKey'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'createKey') return r;
          const { keySecret: _omitted, ...rest } = r;
          return rest;
        },
      },
    ),
    fault(
      'keys-hash-data-drops-secrets',
      'key create with hashData answers without keyId and keySecret',
      ['keys.credentials-returned', 'response.schema'],
      ['createKey'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'createKey' || field(ctx.input, 'hashData') === undefined) return r;
          const { keyId: _keyId, keySecret: _keySecret, ...rest } = r;
          return rest;
        },
      },
    ),
    fault(
      'key-allow-list-dropped',
      'key create answers without the ipAccessList it was sent',
      ['keys.credentials-returned'],
      ['createKey'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'createKey' || !isObject(r.key)) return r;
          const { ipAccessList: _dropped, ...key } = r.key;
          return { ...r, key };
        },
      },
    ),
    statefulFault(
      'duplicate-key-ids',
      'every second key create answers the keyId of the key created before it',
      ['keys.credentials-unique'],
      ['createKey'],
      () => {
        let previous: string | undefined;
        return {
          result: (ctx, r) => {
            if (ctx.operation !== 'createKey' || typeof r.keyId !== 'string') return r;
            const reused = previous;
            previous = reused === undefined ? r.keyId : undefined;
            return reused === undefined ? r : { ...r, keyId: reused };
          },
        };
      },
    ),
    fault(
      'keys-default-expiry',
      'a key created without expiry expires in 30 days',
      ['keys.never-expires'],
      ['createKey'],
      {
        result: (ctx, r) =>
          ctx.operation === 'createKey' && isObject(r.key) && (r.key.expireAt === null || r.key.expireAt === undefined)
            ? { ...r, key: { ...r.key, expireAt: new Date(Date.now() + 30 * DAY_MS).toISOString() } }
            : r,
      },
    ),
    fault(
      'keys-empty-expiry-rejected',
      'key create rejects expireAt given as an empty string',
      ['keys.never-expires', 'request.valid-accepted'],
      ['createKey'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'createKey' && field(ctx.input, 'expireAt') === ''
            ? [...problems, problem('expireAt', 'format', 'expireAt must be an RFC 3339 date-time')]
            : problems,
      },
    ),
    fault('keys-used-at-number', 'key create returns usedAt as the number 0', ['response.schema'], ['createKey'], {
      result: (ctx, r) =>
        ctx.operation === 'createKey' && isObject(r.key) ? { ...r, key: { ...r.key, usedAt: 0 } } : r,
    }),

    // Usage.
    fault('usage-accepts-31-days', 'usage accepts periods up to 31 days', ['usage.period-limit'], ['getUsageCost'], {
      review: (ctx, problems) =>
        ctx.operation === 'getUsageCost' && periodMs(ctx) <= MAX_PERIOD_MS + DAY_MS
          ? drop(problems, 'period-too-long')
          : problems,
    }),
    fault(
      'usage-rejects-30-days',
      'usage rejects a period of exactly 30 days',
      ['usage.period-limit', 'request.valid-accepted'],
      ['getUsageCost'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'getUsageCost' && periodMs(ctx) === MAX_PERIOD_MS
            ? [...problems, problem('to_date', 'period-too-long', 'to_date must be less than 30 days after from_date')]
            : problems,
      },
    ),
    fault(
      'names-trimmed',
      'names are stored with the whitespace at either end trimmed (pipes, keys, alerts)',
      ['pipes.update-applies', 'keys.credentials-returned', 'alerts.update-applies'],
      ['updatePipe', 'createKey', 'updateAlert'],
      { parse: (text, parse) => withTexts(parse(text), ['name'], (name) => name.trim()) },
    ),
    fault(
      'markup-escaped',
      'names and messages are stored HTML-escaped: <, >, &, " and \' as entities',
      ['pipes.update-applies', 'keys.credentials-returned', 'alerts.update-applies'],
      ['updatePipe', 'createKey', 'updateAlert'],
      { parse: (text, parse) => withTexts(parse(text), ['name', 'message'], htmlEscaped) },
    ),
    fault(
      'lone-surrogate-500',
      'a body holding an escaped lone surrogate (valid JSON text) is answered 500: the store cannot encode it',
      ['errors.client-not-server'],
      ['updatePipe', 'createKey', 'updateAlert'],
      {
        review: (_ctx, problems) => {
          if (holdsLoneSurrogate(_ctx.input)) throw new Error('invalid UTF-8: a lone surrogate cannot be stored');
          return problems;
        },
      },
    ),
    fault(
      'usage-calendar-month',
      'usage allows a period of one calendar month (to the same day of the next month), not 30 days',
      ['usage.period-limit', 'request.valid-accepted'],
      ['getUsageCost'],
      {
        review: (ctx, problems) => {
          if (ctx.operation !== 'getUsageCost') return problems;
          const { from, to } = usagePeriod(ctx.input);
          if (from === undefined || to === undefined) return problems;
          const start = new Date(from.instantMs);
          const month = Date.UTC(
            start.getUTCFullYear(),
            start.getUTCMonth() + 1,
            start.getUTCDate(),
            start.getUTCHours(),
            start.getUTCMinutes(),
            start.getUTCSeconds(),
          );
          const rest = drop(problems, 'period-too-long');
          return to.instantMs > month
            ? [...rest, problem('to_date', 'period-too-long', 'to_date must be within one month of from_date')]
            : rest;
        },
      },
    ),
    fault(
      'usage-to-date-optional',
      'usage accepts a request without to_date (one day)',
      ['usage.required-params'],
      ['getUsageCost'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'getUsageCost' ? drop(problems, 'required', 'to_date') : problems,
      },
    ),
    fault(
      'usage-from-date-optional',
      'usage accepts a request without from_date (one day)',
      ['usage.required-params'],
      ['getUsageCost'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'getUsageCost' ? drop(problems, 'required', 'from_date') : problems,
      },
    ),
    fault(
      'usage-extra-day',
      'usage adds a cost entry dated the day after to_date',
      ['usage.to-date-inclusive'],
      ['getUsageCost'],
      {
        result: (ctx, r) => {
          const { to } = usagePeriod(ctx.input);
          const costs = r.costs;
          if (ctx.operation !== 'getUsageCost' || to === undefined || !Array.isArray(costs) || !isObject(costs[0]))
            return r;
          const service = {
            id: costs[0].serviceId,
            name: costs[0].entityName,
            dataWarehouseId: costs[0].dataWarehouseId,
          };
          const extended = [
            ...costs.filter(isObject),
            costEntry(service, Math.max(to.writtenDay, to.utcDay) + 1, new Date()),
          ];
          return { ...r, costs: extended, grandTotalCredits: totalOf(extended) };
        },
      },
    ),

    fault(
      'usage-to-date-exclusive',
      'usage leaves out the entries of the to_date day (to_date taken as exclusive)',
      ['usage.to-date-inclusive'],
      ['getUsageCost'],
      {
        result: (ctx, r) => {
          const { to } = usagePeriod(ctx.input);
          if (ctx.operation !== 'getUsageCost' || to === undefined || !Array.isArray(r.costs)) return r;
          const lastDay = formatDay(Math.min(to.writtenDay, to.utcDay));
          const kept = r.costs.filter((entry) => !(isObject(entry) && entry.date === lastDay));
          return { ...r, costs: kept, grandTotalCredits: totalOf(kept.filter(isObject)) };
        },
      },
    ),

    fault(
      'usage-grand-total-double-counts',
      "usage's grandTotalCredits counts the period's last entry twice",
      ['usage.grand-total'],
      ['getUsageCost'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'getUsageCost' || !Array.isArray(r.costs)) return r;
          const last = r.costs.filter(isObject).at(-1);
          return last === undefined ? r : { ...r, grandTotalCredits: totalOf([...r.costs.filter(isObject), last]) };
        },
      },
    ),

    // Backups.
    fault(
      'backup-id-mismatch',
      'the backup read returns a backup whose id is not the path backupId',
      ['backups.identity'],
      ['getBackup'],
      {
        result: (ctx, r) => (ctx.operation === 'getBackup' ? { ...r, id: randomUUID() } : r),
      },
    ),
    fault('backup-size-string', 'the backup read returns sizeInBytes as a string', ['response.schema'], ['getBackup'], {
      result: (ctx, r) => (ctx.operation === 'getBackup' ? { ...r, sizeInBytes: String(r.sizeInBytes) } : r),
    }),

    // Alerts.
    fault(
      'alerts-dashboard-non-hex-500',
      'alert update with a dashboardId that is a string but not 24 hex digits fails with a 500',
      ['errors.client-not-server'],
      ['updateAlert'],
      {
        review: (ctx, problems) => {
          const dashboardId = field(ctx.input, 'dashboardId');
          if (
            ctx.operation === 'updateAlert' &&
            typeof dashboardId === 'string' &&
            !/^[0-9a-f]{24}$/i.test(dashboardId)
          ) {
            throw new TypeError(
              `Cast to ObjectId failed for value "${dashboardId.slice(0, 40)}" (type string) at path "dashboard"`,
            );
          }
          return problems;
        },
      },
    ),
    fault(
      'alerts-update-unwrapped',
      'alert update answers the alert without the `data` wrapper',
      ['alerts.envelope'],
      ['updateAlert'],
      {
        result: (ctx, r) => (ctx.operation === 'updateAlert' && isObject(r.data) ? r.data : r),
      },
    ),
    statefulFault(
      'pipe-created-at-rewritten',
      "every pipe PATCH rewrites the pipe's createdAt to the time of the PATCH",
      ['pipes.state-consistent', 'timestamps.consistent'],
      ['updatePipe'],
      (store) => ({
        result: (ctx, r) =>
          ctx.operation === 'updatePipe'
            ? storedAs(store, r, { createdAt: new Date(Date.now() + 1000).toISOString() })
            : r,
      }),
    ),
    statefulFault(
      'alert-created-at-rewritten',
      "every alert update rewrites the alert's createdAt to the time of the update",
      ['alerts.update-applies', 'timestamps.consistent'],
      ['updateAlert', 'listAlerts'],
      (store) => ({
        result: (ctx, r) => {
          const alert = store.alerts.get((ctx.params.id ?? '').toLowerCase());
          if (ctx.operation !== 'updateAlert' || !isObject(r.data) || !alert) return r;
          const createdAt = new Date(Date.now() + 1000).toISOString();
          store.alerts.set(alert.id, { ...alert, createdAt });
          return { ...r, data: { ...r.data, createdAt } };
        },
      }),
      // The lists after an update show a createdAt after updatedAt; a run that sends no update (--allow read) judges
      // lists that hold together.
      [{ rule: 'timestamps.consistent', on: ['listAlerts'], sometimes: true }],
    ),
    fault(
      'key-expiry-offset-dropped',
      "a key's expireAt sent with an offset is stored as the same wall-clock time in UTC (+06:45 read as Z)",
      ['keys.credentials-returned'],
      ['createKey'],
      {
        result: (ctx, r) => {
          const sent = isObject(ctx.input) ? ctx.input.expireAt : undefined;
          const wall = typeof sent === 'string' ? /^(.{19})(?:\.\d+)?[+-]\d\d:\d\d$/.exec(sent)?.[1] : undefined;
          return ctx.operation === 'createKey' && wall && isObject(r.key)
            ? { ...r, key: { ...r.key, expireAt: `${wall}Z` } }
            : r;
        },
      },
    ),
    statefulFault(
      'refused-patch-applied',
      'a pipe PATCH refused with 400 (under its own path or another) still writes the numeric settings it sent',
      ['writes.refused-unchanged', 'access.path-scoped'],
      ['getPipeSettings'],
      (store) => ({
        review: (ctx, problems) => {
          const pipe = store.pipes.get((ctx.params.pipeId ?? '').toLowerCase());
          const sent = isObject(ctx.input) && isObject(ctx.input.settings) ? ctx.input.settings : undefined;
          if (ctx.operation !== 'updatePipe' || problems.length === 0 || !pipe || !sent) return problems;
          const numbers = Object.entries(sent).filter(
            ([key, value]) => Number.isSafeInteger(value) && (value as number) > 0 && key in pipe.settings,
          );
          store.pipes.set(pipe.id, { ...pipe, settings: { ...pipe.settings, ...Object.fromEntries(numbers) } });
          return problems;
        },
      }),
    ),
    statefulFault(
      'refused-alert-update-stored',
      'an alert update refused with 400 still stores the name, message and threshold it sent',
      ['writes.refused-unchanged'],
      ['listAlerts'],
      (store) => ({
        review: (ctx, problems) => {
          const alert = store.alerts.get((ctx.params.id ?? '').toLowerCase());
          const input = isObject(ctx.input) ? ctx.input : undefined;
          if (ctx.operation !== 'updateAlert' || problems.length === 0 || !alert || !input) return problems;
          store.alerts.set(alert.id, {
            ...alert,
            ...(typeof input.name === 'string' ? { name: `${input.name} (refused)` } : {}),
            ...(typeof input.message === 'string' ? { message: input.message } : {}),
            ...(typeof input.threshold === 'number' ? { threshold: input.threshold + 1 } : {}),
          });
          return problems;
        },
      }),
    ),
    statefulFault(
      'threshold-float32',
      'an alert threshold is stored as a 32-bit float: 0.1 reads back as 0.10000000149011612, 16777217 as 16777216',
      ['alerts.update-applies'],
      ['updateAlert'],
      (store) => ({
        result: (ctx, r) => {
          const alert = store.alerts.get((ctx.params.id ?? '').toLowerCase());
          if (ctx.operation !== 'updateAlert' || !isObject(r.data) || !alert) return r;
          // Past a float32's range the column would refuse the value: only those it holds are rounded.
          const threshold = Number.isFinite(Math.fround(Number(alert.threshold)))
            ? Math.fround(Number(alert.threshold))
            : alert.threshold;
          store.alerts.set(alert.id, { ...alert, threshold });
          return { ...r, data: { ...r.data, threshold } };
        },
      }),
      [{ rule: 'alerts.update-applies', on: ['listAlerts'], sometimes: true }],
    ),
    fault(
      'alerts-dashboard-id-returned',
      'alert update also returns the dashboard as dashboardId',
      ['alerts.dashboard-mapping'],
      ['updateAlert'],
      {
        result: (ctx, r) =>
          ctx.operation === 'updateAlert' && isObject(r.data)
            ? { ...r, data: { ...r.data, dashboardId: r.data.dashboard } }
            : r,
      },
    ),
    fault(
      'alerts-dashboard-ignored',
      'alert update ignores dashboardId: the answer keeps the dashboard the alert had',
      ['alerts.dashboard-mapping', 'alerts.update-applies'],
      ['updateAlert'],
      {
        result: (ctx, r, previous) =>
          ctx.operation === 'updateAlert' && isObject(r.data) && isObject(previous?.data)
            ? { ...r, data: { ...r.data, dashboard: previous.data.dashboard } }
            : r,
      },
    ),
    fault(
      'alerts-group-by-missing',
      'alert update omits groupBy',
      ['alerts.update-fields', 'response.schema'],
      ['updateAlert'],
      {
        result: (ctx, r) => {
          if (ctx.operation !== 'updateAlert' || !isObject(r.data)) return r;
          const { groupBy: _omitted, ...data } = r.data;
          return { ...r, data };
        },
      },
    ),
    fault('alerts-list-includes-silenced', 'alert list entries carry silenced', ['alerts.list-omits'], ['listAlerts'], {
      result: (ctx, r) =>
        ctx.operation === 'listAlerts' && Array.isArray(r.data)
          ? { ...r, data: r.data.filter(isObject).map((alert) => ({ ...alert, silenced: false })) }
          : r,
    }),
    statefulFault(
      'alerts-update-not-listed',
      'alert update answers the change but does not store it',
      ['alerts.update-applies', 'timestamps.consistent'],
      ['listAlerts'],
      () => ({
        persists: (ctx, p) => (ctx.operation === 'updateAlert' ? false : p),
      }),
      // The list after an update shows an updatedAt older than the update's answer did; a run that sends no update
      // (--allow read) judges the lists alone, which hold together.
      [{ rule: 'timestamps.consistent', on: ['listAlerts'], sometimes: true }],
    ),
    fault(
      'alerts-threshold-type-unchecked',
      'alert update accepts and stores a thresholdType outside above/below',
      ['alerts.enums', 'response.schema'],
      ['updateAlert'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'updateAlert' ? drop(problems, 'enum', 'thresholdType') : problems,
      },
    ),
    fault(
      'alerts-source-unchecked',
      'alert update accepts and stores a source outside tile/search',
      ['alerts.enums', 'response.schema'],
      ['updateAlert'],
      {
        review: (ctx, problems) => (ctx.operation === 'updateAlert' ? drop(problems, 'enum', 'source') : problems),
      },
    ),
    fault(
      'alerts-threshold-below-rejected',
      'alert update answers 400 when `thresholdType` is "below", one of the two values the alerts document allows',
      ['request.valid-accepted'],
      ['updateAlert'],
      {
        review: (ctx, problems) =>
          ctx.operation === 'updateAlert' && field(ctx.input, 'thresholdType') === 'below'
            ? [
                ...problems,
                problem(
                  'thresholdType',
                  'invalid',
                  'thresholdType "below" is not supported for alert updates; use "above"',
                ),
              ]
            : problems,
      },
    ),

    // State over sequences of requests.
    statefulFault(
      'pipe-update-stored-once',
      'a pipe update is stored only the first time: later updates of the same pipe are answered as applied ' +
        'but not stored',
      ['pipes.state-consistent', 'pipes.update-applies'],
      ['getPipeSettings'],
      () => {
        const updated = new Set<string>();
        return {
          persists: (ctx, p) => {
            if (ctx.operation !== 'updatePipe') return p;
            const id = (ctx.params.pipeId ?? '').toLowerCase();
            if (updated.has(id)) return false;
            updated.add(id);
            return p;
          },
        };
      },
      [{ rule: 'pipes.state-consistent', on: ['updatePipe'], sometimes: true }, UNSTORED_MAPPINGS],
    ),
    statefulFault(
      'pipe-settings-read-other-pipe',
      'the settings read answers the settings of the pipe created just before the one asked for',
      ['pipes.state-consistent', 'pipes.update-applies', 'writes.refused-unchanged'],
      ['getPipeSettings'],
      (store) => ({
        result: (ctx, r) => {
          const before = ctx.operation === 'getPipeSettings' ? pipeBefore(store, ctx.params.pipeId) : undefined;
          return before ? copyJson(before.settings) : r;
        },
      }),
      // A sequence whose settings read follows a refused update (on some seeds) sees the other pipe's settings there.
      [{ rule: 'writes.refused-unchanged', on: ['getPipeSettings'], sometimes: true }],
    ),
    statefulFault(
      'pipe-update-settings-spill',
      'a pipe update that sends some but not all settings also writes them into every other pipe of the service',
      ['pipes.state-consistent', 'pipes.update-applies', 'pipes.concurrent-updates', 'writes.refused-unchanged'],
      [],
      (store) => ({
        result: (ctx, r) => {
          const settings = field(ctx.input, 'settings');
          if (ctx.operation !== 'updatePipe' || !isObject(settings) || Object.keys(settings).length >= 12) return r;
          for (const pipe of store.pipes.values()) {
            if (pipe.id !== ctx.params.pipeId?.toLowerCase())
              store.pipes.set(pipe.id, { ...pipe, settings: { ...pipe.settings, ...settings } });
          }
          return r;
        },
      }),
      // Every settings read shows the spill. An update answer shows what another pipe's update spilled (of this
      // sequence or of one run at the same time), and so may the settings read after PATCHes sent at once. A read
      // breaks pipes.update-applies only where the spilled key is one the pipe itself was sent, and only when no step
      // before it (an update answer showing a spill first ends the sequence) did: which, the draw decides.
      [
        { rule: 'pipes.state-consistent', on: ['getPipeSettings'] },
        { rule: 'pipes.update-applies', on: ['getPipeSettings'], sometimes: true },
        { rule: 'pipes.state-consistent', on: ['updatePipe'], sometimes: true },
        { rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true },
        // A spill from a sequence run at the same time may land between the reads around a refused update.
        { rule: 'writes.refused-unchanged', on: ['getPipeSettings'], sometimes: true },
      ],
    ),
    statefulFault(
      'pipe-patch-resets-unsent',
      'a pipe update that sends some but not all settings resets the settings it did not send to their defaults',
      ['pipes.state-consistent', 'pipes.concurrent-updates'],
      [],
      (store) => ({
        result: (ctx, r) => {
          const settings = field(ctx.input, 'settings');
          if (ctx.operation !== 'updatePipe' || !isObject(settings) || Object.keys(settings).length >= 12) return r;
          return storedAs(store, r, { settings: { ...copyJson(DEFAULT_SETTINGS), ...copyJson(settings) } });
        },
      }),
      // The settings read after an observe update shows it on every seed; sequences show it only where they draw an
      // update of some settings of a pipe whose settings are then read or updated again.
      [
        { rule: 'pipes.state-consistent', on: ['getPipeSettings'] },
        { rule: 'pipes.state-consistent', on: ['updatePipe'], sometimes: true },
        { rule: 'pipes.concurrent-updates', on: ['updatePipe'], sometimes: true },
      ],
    ),
    statefulFault(
      'alert-update-spills',
      'an alert update also writes its threshold into the alert stored after it',
      ['alerts.update-isolated'],
      ['listAlerts'],
      (store) => ({
        result: (ctx, r) => {
          const threshold = field(ctx.input, 'threshold');
          const after =
            ctx.operation === 'updateAlert' && typeof threshold === 'number'
              ? alertAfter(store, ctx.params.id)
              : undefined;
          if (after && typeof threshold === 'number') store.alerts.set(after.id, { ...after, threshold });
          return r;
        },
      }),
    ),
    statefulFault(
      'table-mappings-add-replaces',
      'a relational pipe update applies tableMappingsToAdd as a replacement: the mappings the pipe had are dropped',
      ['pipes.state-consistent'],
      ['updatePipe'],
      (store) => ({
        result: (ctx, r) => {
          const added = at(field(ctx.input, 'source'), ['relational', 'tableMappingsToAdd']);
          if (ctx.operation !== 'updatePipe' || !Array.isArray(added)) return r;
          return withTableMappings(store, ctx.params.pipeId, r, (list) =>
            list.filter((m) => added.some((a) => sameTableKey(m, a))),
          );
        },
      }),
    ),
    statefulFault(
      'table-mappings-delta-ignored',
      'a relational pipe update ignores tableMappingsToAdd and tableMappingsToRemove: the mappings stay as they were',
      ['pipes.update-applies', 'pipes.state-consistent'],
      ['updatePipe'],
      (store) => ({
        result: (ctx, r, previous) => {
          const relational = at(field(ctx.input, 'source'), ['relational']);
          const before = at(previous, ['source', 'relational', 'tableMappings']);
          if (ctx.operation !== 'updatePipe' || !isObject(relational) || !Array.isArray(before)) return r;
          if (relational.tableMappingsToAdd === undefined && relational.tableMappingsToRemove === undefined) return r;
          return withTableMappings(store, ctx.params.pipeId, r, () => copyJson(before));
        },
      }),
    ),

    // Writes sent at once.
    statefulFault(
      'pipe-update-lost',
      'a pipe PATCH reads the pipe, waits for storage, then writes it back whole with its changes: of two PATCHes of ' +
        'one pipe in flight together one is lost, while PATCHes sent one after another all apply',
      ['pipes.concurrent-updates', 'pipes.update-applies'],
      ['updatePipe'],
      pipeUpdateLost,
      [UNSTORED_MAPPINGS],
    ),
    statefulFault(
      'alert-update-field-by-field',
      'an alert update writes its fields one by one in no fixed order, waiting for storage between them, and answers ' +
        'the alert as it then reads: two updates in flight together leave a mix of both',
      ['alerts.concurrent-updates'],
      ['updateAlert'],
      alertUpdateFieldByField,
    ),
    statefulFault(
      'key-ids-from-clock',
      "a key's id and keyId come from the clock's minute and the count of keys stored in it, read before a wait " +
        'for storage: keys created at once share them, keys created one after another do not',
      ['keys.credentials-unique'],
      ['createKey'],
      keyIdsFromClock,
    ),
    // Values of every kind the documents allow. Only a value past a 32-bit integer, a name outside latin1 or an integer
    // past 2^53 shows each: the open fields' observe creates send them on every seed (`also`, always), later requests
    // only when the values drawn or learned are such (`sometimes`).
    statefulFault(
      'numbers-int32',
      'numeric pipe settings are stored as 32-bit integers: a fraction is cut, a value past 2^31 wraps around',
      ['pipes.reflects-request', 'pipes.update-applies', 'pipes.state-consistent'],
      [],
      (store) => ({
        result: (ctx, r) => (isPipeWrite(ctx) ? storedAs(store, r, { settings: int32Settings(r.settings) }) : r),
      }),
      [
        { rule: 'pipes.reflects-request', on: ['createPipe'] },
        { rule: 'pipes.update-applies', on: ['updatePipe', 'getPipeSettings'], sometimes: true },
        { rule: 'pipes.state-consistent', on: ['createPipe', 'updatePipe', 'getPipeSettings'], sometimes: true },
      ],
    ),
    statefulFault(
      'names-latin1',
      'pipe and key names are stored in a latin1 column: a character outside latin1 comes back as ?',
      ['pipes.reflects-request', 'keys.credentials-returned', 'pipes.update-applies', 'pipes.state-consistent'],
      [],
      (store) => ({
        result: (ctx, r) => {
          if (ctx.operation === 'createKey' && isObject(r.key))
            return { ...r, key: { ...r.key, name: latin1(r.key.name) } };
          return isPipeWrite(ctx) ? storedAs(store, r, { name: latin1(r.name) }) : r;
        },
      }),
      [
        { rule: 'pipes.reflects-request', on: ['createPipe'] },
        { rule: 'keys.credentials-returned', on: ['createKey'], sometimes: true },
        { rule: 'pipes.update-applies', on: ['updatePipe'], sometimes: true },
        { rule: 'pipes.state-consistent', on: ['createPipe', 'updatePipe', 'getPipeSettings'], sometimes: true },
      ],
    ),
    fault(
      'alerts-list-dashboard-id',
      'alert list entries name the dashboard `dashboardId` instead of `dashboard`',
      ['alerts.dashboard-mapping'],
      ['listAlerts'],
      {
        result: (ctx, r) =>
          ctx.operation === 'listAlerts' && Array.isArray(r.data)
            ? {
                ...r,
                data: r.data.map((entry) => {
                  if (!isObject(entry)) return entry;
                  const { dashboard, ...rest } = entry;
                  return { ...rest, dashboardId: dashboard ?? null };
                }),
              }
            : r,
      },
    ),
    // The refusal's words name the field's path, as a refusal of an open field's value would.
    validateSamplesRefused(
      'pipe-validate-samples-refused',
      'a pipe create that carries the documented `source.validateSamples` is refused with 400 "unknown field ' +
        'source.validateSamples"',
      'unknown field source.validateSamples',
    ),
    ...CREDENTIAL_FAULTS,
    ...TIMESTAMP_FAULTS,

    // The contract's neighbourhood: odd input that reaches a database or a framework's corner gets a 500.
    fault(
      'text-nul-crash',
      'a string holding U+0000 reaches PostgreSQL, which refuses NUL in text: a 500',
      ['errors.client-not-server'],
      ['createPipe', 'updatePipe', 'createKey', 'updateAlert'],
      {
        review: (ctx, problems) => {
          if (holdsText(ctx.input, (text) => text.includes('\u0000')))
            throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
          return problems;
        },
      },
    ),
    fault(
      'roles-repeated-crash',
      'a key create with a role twice breaks a unique constraint on (key, role): a 500',
      ['errors.client-not-server'],
      ['createKey'],
      {
        review: (ctx, problems) => {
          const roles = field(ctx.input, 'roles');
          if (ctx.operation === 'createKey' && Array.isArray(roles) && new Set(roles).size < roles.length)
            throw new Error('duplicate key value violates unique constraint "key_roles_pkey"');
          return problems;
        },
      },
    ),
    fault(
      'query-repeated-crash',
      'a query parameter given twice reaches the handler as an array where a string was expected: a 500',
      ['errors.client-not-server'],
      ['getUsageCost'],
      {
        review: (_ctx, problems) => {
          if (problems.some((p) => p.code === 'repeated')) throw new TypeError('value.trim is not a function');
          return problems;
        },
      },
    ),
    fault(
      'unknown-field-crash',
      'a top-level field no document names is taken as a column of the table: an ORM error, a 500',
      ['errors.client-not-server'],
      ['createPipe', 'updatePipe', 'createKey', 'updateAlert'],
      {
        review: (ctx, problems) => {
          const spec = ctx.operation === undefined ? undefined : BODY_SPECS[ctx.operation];
          const named =
            spec?.type === 'object' ? [...Object.keys(spec.fields), ...(spec === KEY_SPEC ? ['expireAt'] : [])] : [];
          const unknown = isObject(ctx.input)
            ? Object.keys(ctx.input).find((key) => spec && !named.includes(key))
            : undefined;
          if (unknown !== undefined) throw new Error(`column "${unknown}" of relation does not exist`);
          return problems;
        },
      },
    ),
    fault(
      'no-content-type-crash',
      'a write with no JSON Content-Type reaches a body parser that assumes one: a 500',
      ['errors.client-not-server'],
      ['createPipe', 'updatePipe', 'createKey', 'updateAlert'],
      {
        review: (_ctx, problems) => {
          if (problems.some((p) => p.code === 'content-type'))
            throw new TypeError("Cannot read properties of undefined (reading 'name')");
          return problems;
        },
      },
    ),
    fault(
      'unlisted-method-crash',
      'a method the path does not list falls through to a handler that fails: a 500 in place of a 405',
      ['errors.client-not-server'],
      [...MANAGEMENT, 'updateAlert', 'listAlerts'],
      {
        response: (_ctx, outgoing) =>
          outgoing.status === 405
            ? { ...outgoing, status: 500, body: { error: 'internal error: no handler' } }
            : outgoing,
      },
    ),
    fault(
      'interval-unit-crash',
      'an alert interval in a unit other than minutes or hours reaches a parser that knows only m and h: a 500',
      ['errors.client-not-server'],
      ['updateAlert'],
      {
        review: (ctx, problems) => {
          const interval = field(ctx.input, 'interval');
          if (ctx.operation === 'updateAlert' && typeof interval === 'string' && !/^\d+[mh]$/.test(interval))
            throw new Error(`unknown interval unit in ${JSON.stringify(interval)}`);
          return problems;
        },
      },
    ),
    fault(
      'pipe-update-unmapped-accepted',
      'a pipe update whose destination columns or fieldMappings leave a column unmapped is accepted',
      ['pipes.field-mappings-cover-columns'],
      ['updatePipe'],
      {
        review: (ctx, problems) => (ctx.operation === 'updatePipe' ? drop(problems, 'unmapped-column') : problems),
      },
    ),
  ]
    .map(throughWritesAtOnce)
    .map((entry): Fault => Object.freeze(entry)),
);

/** The names of all faults. */
export const FAULT_NAMES: readonly string[] = Object.freeze(FAULTS.map((f) => f.name));

/** Finds faults by name; throws an Error naming an unknown name and listing the valid ones. */
export function selectFaults(names: readonly string[]): readonly Fault[] {
  return selectNamed(FAULTS, names, 'fault');
}

/** A fault with what it also fails through writes sent at once (`THROUGH_WRITES_AT_ONCE`). */
function throughWritesAtOnce(entry: Fault): Fault {
  const more = THROUGH_WRITES_AT_ONCE[entry.name];
  if (!more) return entry;
  const breaks = [...new Set([...entry.breaks, ...more.map((m) => m.rule)])];
  return { ...entry, breaks, also: [...(entry.also ?? []), ...more] };
}

function fault(
  name: string,
  description: string,
  breaks: readonly RuleId[],
  on: readonly OperationId[],
  hooks: Hooks,
): Fault {
  return statefulFault(name, description, breaks, on, () => hooks);
}

/** A fault that refuses every pipe create carrying the documented `source.validateSamples`, in the words given. */
function validateSamplesRefused(name: string, description: string, words: string): Fault {
  return fault(name, description, ['request.valid-accepted', 'pipes.field-mappings-cover-columns'], ['createPipe'], {
    review: (ctx, problems) =>
      ctx.operation === 'createPipe' &&
      isObject(ctx.input) &&
      isObject(ctx.input.source) &&
      ctx.input.source.validateSamples !== undefined
        ? [...problems, problem('source.validateSamples', 'unknown-field', words)]
        : problems,
  });
}

function drop(problems: readonly Problem[], code: ProblemCode, path?: string): readonly Problem[] {
  return problems.filter((p) => !(p.code === code && (path === undefined || p.path === path)));
}

function field(input: Json | undefined, key: string): Json | undefined {
  return isObject(input) ? input[key] : undefined;
}

function at(value: Json | undefined, path: readonly string[]): Json | undefined {
  return path.reduce<Json | undefined>((current, key) => (isObject(current) ? current[key] : undefined), value);
}

/** Copies a value sent under `source.<from>` into the result under `source.<to>`, for one operation. */
function echo(
  ctx: HookContext,
  operation: OperationId,
  result: JsonObject,
  from: readonly string[],
  to: readonly string[],
): JsonObject {
  const sent = at(field(ctx.input, 'source'), from);
  if (ctx.operation !== operation || sent === undefined || !isObject(result.source)) return result;
  const copy = copyJson(result);
  let target: Json | undefined = copy.source;
  for (const key of to.slice(0, -1)) {
    if (!isObject(target)) return result;
    if (!isObject(target[key])) target[key] = {};
    target = target[key];
  }
  const last = to.at(-1);
  if (!isObject(target) || last === undefined) return result;
  target[last] = copyJson(sent);
  return copy;
}

function firstSecret(input: Json | undefined): string | undefined {
  const source = field(input, 'source');
  const candidates = [
    at(source, ['broker', 'credentials', 'password']),
    at(source, ['broker', 'schemaRegistry', 'credentials', 'password']),
    at(source, ['relational', 'credentials', 'password']),
    at(source, ['objectStorage', 'accessKey', 'secretKey']),
    at(source, ['stream', 'accessKey', 'secretKey']),
  ];
  return candidates.find((c): c is string => typeof c === 'string' && /^[\x21-\x7e][\x20-\x7e]*$/.test(c));
}

function periodMs(ctx: HookContext): number {
  const { from, to } = usagePeriod(ctx.input);
  return from === undefined || to === undefined ? Number.NaN : to.instantMs - from.instantMs;
}

function uuidV1(): string {
  const hex = randomBytes(16).toString('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  const time = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-1${hex.slice(13, 16)}`;
  return `${time}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A role in any case and with spaces at its ends, as the role it folds to; undefined when it folds to none. */
function folded(role: Json | undefined): string | undefined {
  const word = typeof role === 'string' ? role.trim().toLowerCase() : undefined;
  return word !== undefined && (KEY_ROLES as readonly string[]).includes(word) ? word : undefined;
}

/** Whether the role at `path` (`roles[2]`) of a key create folds to a role. */
function lenientRole(ctx: HookContext, path: string): boolean {
  const roles = field(ctx.input, 'roles');
  const index = Number(/^roles\[(\d+)\]/.exec(path)?.[1]);
  return Array.isArray(roles) && folded(roles[index]) !== undefined;
}

/** The stored pipe created just before pipe `id`, if any. */
function pipeBefore(store: Store, id: string | undefined): PipeRecord | undefined {
  let before: PipeRecord | undefined;
  for (const pipe of store.pipes.values()) {
    if (pipe.id === id?.toLowerCase()) return before;
    before = pipe;
  }
  return undefined;
}

/** The stored alert of the same team after alert `id`, the first after the last. */
function alertAfter(store: Store, id: string | undefined): AlertRecord | undefined {
  const team = store.alerts.get(id?.toLowerCase() ?? '')?.team;
  const alerts = [...store.alerts.values()].filter((alert) => alert.team === team);
  const index = alerts.findIndex((alert) => alert.id === id?.toLowerCase());
  return index === -1 || alerts.length < 2 ? undefined : alerts[(index + 1) % alerts.length];
}

const isPipeWrite = (ctx: HookContext): boolean => ctx.operation === 'createPipe' || ctx.operation === 'updatePipe';

/** A pipe answer with `changes` applied, stored so that later reads show them too. */
function storedAs(store: Store, result: JsonObject, changes: Partial<PipeRecord> & JsonObject): JsonObject {
  const pipe = typeof result.id === 'string' ? store.pipes.get(result.id) : undefined;
  if (pipe) store.pipes.set(pipe.id, { ...pipe, ...changes });
  return { ...result, ...changes };
}

/** Settings whose numbers went through a 32-bit integer column. */
function int32Settings(settings: Json | undefined): JsonObject {
  if (!isObject(settings)) return {};
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [
      key,
      typeof value === 'number' && Number.isFinite(value)
        ? Math.trunc(value) | 0
        : typeof value === 'bigint'
          ? Number(BigInt.asIntN(32, value))
          : value,
    ]),
  );
}

/** A name through a latin1 column: each character past U+00FF becomes `?`. */
function latin1(name: Json | undefined): string {
  return [...String(name ?? '')].map((char) => ((char.codePointAt(0) ?? 0) > 0xff ? '?' : char)).join('');
}

/** A body with the top-level string `fields` rewritten. */
function withTexts(value: Json, fields: readonly string[], rewrite: (text: string) => string): Json {
  if (!isObject(value)) return value;
  const copy: JsonObject = { ...value };
  for (const field of fields) {
    const text = copy[field];
    if (typeof text === 'string') copy[field] = rewrite(text);
  }
  return copy;
}

const htmlEscaped = (text: string): string =>
  text.replace(/[<>&"']/g, (char) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": '#39' }[char]};`);

/** Whether any string of a value holds a surrogate code unit without its pair. */
function holdsLoneSurrogate(value: Json | undefined): boolean {
  if (typeof value === 'string')
    return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  return isObject(value) && Object.values(value).some(holdsLoneSurrogate);
}

/** The body specs of the operations that take a body and a resource's fields. */
const BODY_SPECS: Partial<Record<OperationId, FieldSpec>> = Object.freeze({
  createPipe: CREATE_PIPE_SPEC,
  updatePipe: UPDATE_PIPE_SPEC,
  createKey: KEY_SPEC,
  updateAlert: UPDATE_ALERT_SPEC,
});

/** Whether any string of a value passes `test`. */
function holdsText(value: Json | undefined, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => holdsText(item, test));
  return isObject(value) && Object.values(value).some((item) => holdsText(item, test));
}
