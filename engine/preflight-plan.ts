import { APIS } from '../apis/index.ts';
import type { RunConfig } from '../core/config.ts';

/** The credential variables of an API, comma-separated. */
const credentials = (api: keyof typeof APIS): string => {
  const variables = APIS[api].settings.credentials;
  return 'token' in variables ? variables.token.variable : `${variables.user.variable}, ${variables.password.variable}`;
};

/**
 * The most GET requests the preflight sends before a run that goes on (a 429 it waits out adds one); none for the
 * embedded target.
 */
export function preflightRequestCount(config: RunConfig): number {
  if (config.reference) return 0;
  return (config.management ? 1 : 0) + (config.management?.backupId ? 1 : 0) + (config.alerts ? 1 : 0);
}

/**
 * The preflight's GETs as the dry run lists them, and what each checks; undefined for the embedded target, which has
 * none.
 */
export function preflightPlan(config: RunConfig): string | undefined {
  if (config.reference) return undefined;
  const gets = [
    ...(config.management ? [`GET usageCost of the past day (${credentials('management')}, ORGANIZATION_ID)`] : []),
    ...(config.management?.backupId ? ['GET the backup (SERVICE_ID, BACKUP_ID)'] : []),
    ...(config.alerts
      ? [
          `GET ${APIS.alerts.settings.pathPrefix}/alerts ` +
            `(${credentials('alerts')}${config.alerts.alertId ? ', ALERT_ID listed and updatable' : ''})`,
        ]
      : []),
  ];
  const service =
    config.management && !config.management.backupId
      ? ' SERVICE_ID cannot be checked before the run (the API has no read of a service): an unknown one ' +
        'shows as a 404 on every pipe create, and ends the run in error.'
      : '';
  return (
    `Preflight, before the first probe: ${gets.join('; ')}; a setting it finds wrong stops the run with exit ` +
    `code 2.${service}`
  );
}
