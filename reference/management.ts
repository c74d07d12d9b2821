import { createKey } from './keys.ts';
import { createPipe, getPipeSettings, updatePipe } from './pipes.ts';
import type { Route } from './route.ts';
import { changeServiceState } from './service-state.ts';
import { getBackup } from './backups.ts';
import { getUsageCost } from './usage.ts';

/** The routes of the management API, all under `/v1`. */
export const MANAGEMENT_ROUTES: readonly Route[] = Object.freeze([
  createPipe,
  updatePipe,
  getPipeSettings,
  changeServiceState,
  createKey,
  getUsageCost,
  getBackup,
]);
