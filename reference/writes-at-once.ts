import { setTimeout as sleep } from 'node:timers/promises';
import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type JsonObject } from './json.ts';
import type { AlertRecord, KeyRecord, Store } from './store.ts';

/** How long a write waits for storage under the faults and modes of writes sent at once, in ms. */
export const STORAGE_DELAY_MS = 50;

/** The fields of an alert that an update writes, one by one under `alert-update-field-by-field`. */
const ALERT_UPDATE_FIELDS = Object.freeze([
  'name',
  'message',
  'threshold',
  'interval',
  'thresholdType',
  'source',
  'channel',
  'tileId',
  'dashboard',
] as const satisfies readonly (keyof AlertRecord)[]);

/**
 * A PATCH that reads the pipe, waits for storage, then writes the whole pipe back with its changes applied to what it
 * read: of two PATCHes of one pipe in flight together, the one written last loses the other's changes.
 */
export function pipeUpdateLost(store: Pick<Store, 'pipes'>): Hooks {
  return {
    apply: (ctx, apply) => (ctx.operation === 'updatePipe' ? readWaitWrite(store, ctx, apply) : apply()),
  };
}

/** PATCHes that read, wait for storage and write the pipe back, one at a time per pipe (a lock per pipe). */
export function pipeWritesLocked(store: Pick<Store, 'pipes'>): Hooks {
  const queues = new Map<string, Promise<unknown>>();
  return {
    apply: (ctx, apply) => {
      if (ctx.operation !== 'updatePipe') return apply();
      const id = pipeKey(ctx);
      const done = (queues.get(id) ?? Promise.resolve()).then(() => readWaitWrite(store, ctx, apply));
      const settled = done.then(
        () => undefined,
        () => undefined,
      );
      queues.set(id, settled);
      void settled.then(() => {
        if (queues.get(id) === settled) queues.delete(id);
      });
      return done;
    },
  };
}

/**
 * PATCHes that wait for storage, a time of their own, and then apply their changes to the pipe as it is stored then,
 * all at once: each settings key takes the value of the last write that sent it.
 */
export function lastWritePerKey(): Hooks {
  return {
    apply: async (ctx, apply) => {
      if (ctx.operation !== 'updatePipe') return apply();
      await sleep(STORAGE_DELAY_MS * (0.5 + Math.random()));
      return apply();
    },
  };
}

/**
 * An alert update that writes its fields one by one, in no fixed order, each a storage write of its own latency, and
 * answers the alert as it reads once they are written: two updates in flight together leave a mix of both.
 */
export function alertUpdateFieldByField(store: Pick<Store, 'alerts'>): Hooks {
  return {
    apply: async (ctx, apply) => {
      if (ctx.operation !== 'updateAlert') return apply();
      const id = (ctx.params.id ?? '').toLowerCase();
      const before = store.alerts.get(id);
      const outcome = apply();
      const updated = store.alerts.get(id);
      if (before === undefined || updated === undefined || updated === before) return outcome;
      store.alerts.set(id, before);
      for (const field of shuffled(ALERT_UPDATE_FIELDS)) {
        await sleep(2 + Math.random() * 8);
        const current = store.alerts.get(id) ?? before;
        store.alerts.set(id, { ...current, [field]: updated[field], updatedAt: updated.updatedAt });
      }
      return outcome;
    },
    result: (ctx, result) => {
      const stored = store.alerts.get((ctx.params.id ?? '').toLowerCase());
      if (ctx.operation !== 'updateAlert' || stored === undefined || !isObject(result.data)) return result;
      return { ...result, data: { ...result.data, ...fieldsOf(stored) } };
    },
  };
}

/**
 * Key creates whose `key.id` and `keyId` are derived from the clock's minute and the count of keys stored in it, read
 * before a wait for storage: keys created one after another differ, keys created at once share them (and the last
 * stored replaces the others).
 */
export function keyIdsFromClock(store: Pick<Store, 'keys'>): Hooks {
  const counts = new WeakMap<HookContext, { readonly minute: number; readonly count: number }>();
  return {
    apply: async (ctx, apply) => {
      if (ctx.operation !== 'createKey') return apply();
      const minute = Math.floor(Date.now() / 60_000);
      const prefix = clockKeyId(minute, 0).slice(0, 8);
      const count = [...store.keys.keys()].filter((keyId) => keyId.startsWith(prefix)).length;
      await sleep(STORAGE_DELAY_MS);
      counts.set(ctx, { minute, count });
      return apply();
    },
    result: (ctx, result) => {
      const drawn = counts.get(ctx);
      const record = typeof result.keyId === 'string' ? store.keys.get(result.keyId) : undefined;
      if (ctx.operation !== 'createKey' || drawn === undefined || record === undefined || !isObject(result.key))
        return result;
      const keyId = clockKeyId(drawn.minute, drawn.count + 1);
      const rekeyed: KeyRecord = { ...record, id: clockUuid(drawn.minute, drawn.count + 1), keyId };
      store.keys.delete(record.keyId);
      store.keys.set(keyId, rekeyed);
      return { ...result, keyId, key: { ...result.key, id: rekeyed.id, keySuffix: keyId.slice(-4) } };
    },
  };
}

/** Reads the pipe a PATCH names, waits for storage, puts back what it read and applies the PATCH to it. */
async function readWaitWrite<T>(store: Pick<Store, 'pipes'>, ctx: HookContext, apply: () => T): Promise<T> {
  const id = pipeKey(ctx);
  const read = store.pipes.get(id);
  await sleep(STORAGE_DELAY_MS);
  if (read !== undefined) store.pipes.set(id, read);
  return apply();
}

/** The items in an order of their own, as a storage layer that keeps them in a hash set iterates them. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function pipeKey(ctx: HookContext): string {
  return (ctx.params.pipeId ?? '').toLowerCase();
}

/** The fields of an alert an update writes, as the update answer shows them. */
function fieldsOf(alert: AlertRecord): JsonObject {
  const fields: JsonObject = { updatedAt: alert.updatedAt };
  for (const field of ALERT_UPDATE_FIELDS) fields[field] = field === 'channel' ? { ...alert.channel } : alert[field];
  return fields;
}

/** A key id of 20 url-safe characters made of a minute and a count: the first 8 name the minute. */
function clockKeyId(minute: number, count: number): string {
  const bytes = Buffer.alloc(15);
  bytes.writeUIntBE(minute, 0, 6);
  bytes.writeUInt32BE(count, 11);
  return bytes.toString('base64url');
}

/** A uuid of version 4's form made of a minute and a count. */
function clockUuid(minute: number, count: number): string {
  const hex = minute.toString(16).padStart(16, '0') + count.toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
