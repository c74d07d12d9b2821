import { API_LIST } from '../apis/index.ts';
import {
  type ApiDescriptor,
  credentialSettings,
  type IdSetting,
  idVariable,
  otherCredentialsIn,
  otherTenantSettings,
  type TargetFields,
  targetOf,
} from '../apis/descriptor.ts';
import type { PreflightRead } from '../apis/preflight-reads.ts';
import type { RunConfig } from '../settings/config.ts';

/** Whether the preflight sends a read: every id it checks is set. */
const sent = (read: PreflightRead, target: TargetFields): boolean => read.ids.every((field) => target[field]);

/**
 * The ids of an API that the preflight may confirm by a write (`IdSetting.unknownWhen`) when the run allows writes:
 * set, and checked by no read it sends.
 */
function confirmedByWrite(api: ApiDescriptor, target: TargetFields, config: RunConfig): readonly IdSetting[] {
  if (!config.allow.includes('write')) return [];
  return (api.settings.ids as readonly IdSetting[]).filter(
    (id) =>
      id.unknownWhen &&
      target[id.field] &&
      !api.preflight.some((read) => read.ids.includes(id.field) && sent(read, target)),
  );
}

/**
 * The most requests the preflight sends before a run that goes on (its GETs, and a write that confirms an id no read
 * can; a 429 it waits out adds one); none for the embedded target.
 */
export function preflightRequestCount(config: RunConfig): number {
  if (config.reference) return 0;
  return API_LIST.reduce((count, api) => {
    const target = targetOf(api, config);
    if (!target) return count;
    const reads = api.preflight.filter((read) => sent(read, target)).length;
    return count + reads + (checksOtherTenant(api, target) ? 1 : 0) + confirmedByWrite(api, target, config).length;
  }, 0);
}

/**
 * The preflight's GETs as the dry run lists them, and what each checks; undefined for the embedded target, which has
 * none.
 */
export function preflightPlan(config: RunConfig): string | undefined {
  if (config.reference) return undefined;
  const gets: string[] = [];
  const notes: string[] = [];
  for (const api of API_LIST) {
    const target = targetOf(api, config);
    if (!target) continue;
    api.preflight.forEach((read: PreflightRead, index) => {
      if (sent(read, target)) gets.push(`GET ${read.gets} (${checked(api, read, index, target).join(', ')})`);
      else if (read.leftOut) notes.push(` ${read.leftOut.plan}`);
    });
    const other = checksOtherTenant(api, target);
    if (other) gets.push(`GET ${other.gets} as another tenant (${otherTenantChecks(api)})`);
  }
  return (
    `Preflight, before the first probe: ${gets.join('; ')}; a setting it finds wrong stops the run with exit ` +
    `code 2.${notes.join('')}`
  );
}

/**
 * The preflight read that another tenant's settings are checked with (the API's first read whose ids they name), when
 * they are set; undefined when they are not, or no read fits.
 */
export function otherTenantRead(api: ApiDescriptor): PreflightRead | undefined {
  const named = new Set(api.settings.other?.ids.map((id) => id.for) ?? []);
  return api.settings.other ? api.preflight.find((read) => read.ids.every((field) => named.has(field))) : undefined;
}

/** The read that checks another tenant's settings when the run sets them, else undefined. */
const checksOtherTenant = (api: ApiDescriptor, target: TargetFields): PreflightRead | undefined =>
  otherCredentialsIn(api, target) ? otherTenantRead(api) : undefined;

/** What the other tenant's read checks, as the dry run names it: its settings, and the ids it is sent on. */
function otherTenantChecks(api: ApiDescriptor): string {
  const ids = api.settings.other?.ids ?? [];
  const credentials = otherTenantSettings(api).filter((setting) => !ids.some((id) => id.field === setting.field));
  const where = ids.length > 0 ? ` on ${ids.map((id) => id.variable).join(' and ')}` : ' on its own list';
  return `${credentials.map((setting) => setting.variable).join(', ')}${where}`;
}

/** The settings a read checks, as the dry run names them: the credentials on an API's first read, then its ids. */
function checked(api: ApiDescriptor, read: PreflightRead, index: number, target: TargetFields): string[] {
  return [
    ...(index === 0 ? credentialSettings(api).map((setting) => setting.variable) : []),
    ...read.ids.map((field) => idVariable(api, field)),
    ...(read.finds && target[read.finds.field] ? [read.finds.plan] : []),
  ];
}
