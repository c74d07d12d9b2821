/** operationIds of the management API, as in openapi/management.yaml. */
export const MANAGEMENT_OPERATIONS = Object.freeze(['createPipe', 'updatePipe', 'getPipeSettings', 'changeServiceState', 'createKey', 'getUsageCost', 'getBackup'] as const);

/** operationIds of the alerts API, as in openapi/alerts.yaml. */
export const ALERTS_OPERATIONS = Object.freeze(['updateAlert', 'listAlerts'] as const);

/** Every operationId of both APIs. */
export const ALL_OPERATIONS = Object.freeze([...MANAGEMENT_OPERATIONS, ...ALERTS_OPERATIONS]);
