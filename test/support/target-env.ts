import type { ReferenceTarget } from '../../reference/server.ts';

/**
 * The variables of a run against a reference target as against a deployment: both APIs, the service and its backup;
 * `urls` puts proxies in front.
 */
export function targetEnv(
  target: ReferenceTarget,
  urls: { readonly management?: string; readonly alerts?: string } = {},
): Record<string, string> {
  return {
    MANAGEMENT_BASE_URL: urls.management ?? target.managementUrl,
    MANAGEMENT_KEY_ID: target.managementKeyId,
    MANAGEMENT_KEY_SECRET: target.managementKeySecret,
    ORGANIZATION_ID: target.organizationId,
    SERVICE_ID: target.serviceId,
    BACKUP_ID: target.backupId,
    ALERTS_BASE_URL: urls.alerts ?? target.alertsUrl,
    ALERTS_TOKEN: target.alertsToken,
  };
}

/** The `OTHER_*` settings of a reference target: its other organization's key and its other team's token. */
export function otherTenantEnv(target: ReferenceTarget): Record<string, string> {
  const settings = Object.assign({}, ...target.apis.map((api) => api.settings)) as Record<string, string>;
  return Object.fromEntries(Object.entries(settings).filter(([name]) => name.startsWith('OTHER_')));
}
