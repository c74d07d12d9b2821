import type { RunConfig } from '../core/config.ts';
import type { CreatedResource } from '../core/run-report.ts';

/**
 * Loud warnings for what a run changed on the target and may not have put back: a service sent `stop` and not
 * started again, an alert updated and not put back (the suites say so in the resource's note).
 */
export function leftChangedWarnings(created: readonly CreatedResource[]): string[] {
  return created
    .filter((resource) => (resource.kind === 'service-state' && !resource.note.includes('left started'))
      || (resource.kind === 'alert-update' && !resource.note.includes('put back as found')))
    .map((resource) => `conformance: WARNING: ${resource.kind === 'service-state' ? 'service' : 'alert'} ${resource.id} was changed and may not be back as it was found: ${resource.note}`);
}

/** After a run stopped at once, what it may have changed and not put back, by the probe classes it was allowed. */
export function unknownStateWarnings(config: RunConfig): string[] {
  const warnings: string[] = [];
  if (config.allow.includes('disruptive') && config.management) {
    warnings.push(`conformance: WARNING: the run was stopped at once: service ${config.management.serviceId} may have been sent \`stop\` and not \`start\`: check it and start it by hand if it is stopped.`);
  }
  if (config.allow.includes('write') && config.alerts) {
    warnings.push(`conformance: WARNING: the run was stopped at once: the alert it updates${config.alerts.alertId ? ` (${config.alerts.alertId})` : ''} may not have been put back: check it.`);
  }
  return warnings;
}
