import type { RunConfig } from '../core/config.ts';

/**
 * Loud warnings for the incidents of a run: what it changed on the target and could not put back (a service left
 * stopped, an alert not put back).
 */
export function leftChangedWarnings(incidents: readonly string[]): string[] {
  return incidents.map((incident) => `conformance: WARNING: ${incident}`);
}

/** After a run stopped at once, what it may have changed and not put back, by the probe classes it was allowed. */
export function unknownStateWarnings(config: RunConfig): string[] {
  const warnings: string[] = [];
  if (config.allow.includes('disruptive') && config.management) {
    warnings.push(
      `conformance: WARNING: the run was stopped at once: service ${config.management.serviceId} may have ` +
        `been sent \`stop\` and not \`start\`: check it and start it by hand if it is stopped.`,
    );
  }
  if (config.allow.includes('write') && config.alerts) {
    warnings.push(
      'conformance: WARNING: the run was stopped at once: the alert it ' +
        `updates${config.alerts.alertId ? ` (${config.alerts.alertId})` : ''} may not have been put back: ` +
        'check it.',
    );
  }
  return warnings;
}
