import { type Fault, statefulFault } from './fault.ts';
import type { HookContext } from './hooks.ts';
import type { JsonObject } from './json.ts';

/** How far west of UTC the wall clock of `pipe-update-local-time` runs. */
const LOCAL_OFFSET_MS = 7 * 3_600_000;

/** The faults of times a target sets that do not hold together. */
export const TIMESTAMP_FAULTS: readonly Fault[] = Object.freeze([
  statefulFault(
    'pipe-update-local-time',
    "a pipe PATCH writes updatedAt in the server's local wall time (UTC-7) marked Z: 7 hours before the pipe's " +
      'createdAt, which is UTC',
    ['timestamps.consistent'],
    ['updatePipe'],
    (store) => ({
      result: (ctx: HookContext, r: JsonObject) => {
        if (ctx.operation !== 'updatePipe' || typeof r.id !== 'string') return r;
        const updatedAt = new Date(Date.now() - LOCAL_OFFSET_MS).toISOString();
        const pipe = store.pipes.get(r.id);
        if (pipe) store.pipes.set(pipe.id, { ...pipe, updatedAt });
        return { ...r, updatedAt };
      },
    }),
  ),
  statefulFault(
    'alert-updated-at-stuck',
    'an alert update never moves updatedAt: it keeps the one the alert had',
    ['timestamps.consistent'],
    ['updateAlert'],
    (store) => ({
      result: (ctx: HookContext, r: JsonObject, previous: JsonObject | undefined) => {
        const before = previous?.data as JsonObject | undefined;
        const data = r.data as JsonObject | undefined;
        if (ctx.operation !== 'updateAlert' || !data || typeof before?.updatedAt !== 'string') return r;
        const alert = typeof data.id === 'string' ? store.alerts.get(data.id) : undefined;
        if (alert) store.alerts.set(alert.id, { ...alert, updatedAt: before.updatedAt });
        return { ...r, data: { ...data, updatedAt: before.updatedAt } };
      },
    }),
  ),
]);
