/** The nine update fields of an alert, as the listing names them (`dashboard` for `dashboardId`), with their documented types. */
const LISTED_UPDATE_FIELDS: ReadonlyArray<readonly [string, 'number' | 'string' | 'object']> = Object.freeze([
  ['threshold', 'number'], ['interval', 'string'], ['thresholdType', 'string'], ['source', 'string'], ['dashboard', 'string'],
  ['tileId', 'string'], ['channel', 'object'], ['name', 'string'], ['message', 'string'],
] as const);

/**
 * Why the run may not update a listed alert, or undefined when it may: the run sends complete update bodies and
 * puts the alert back from its listing, so every update field must be listed, and the alert must watch a tile
 * (a saved-search alert has a `savedSearch` that lists omit and the update body cannot set).
 */
export function alertNotUpdatable(alert: Record<string, unknown>): string | undefined {
  const missing = LISTED_UPDATE_FIELDS.filter(([field, type]) => typeof alert[field] !== type || alert[field] === null || alert[field] === '').map(([field]) => field);
  const channel = alert.channel as { type?: unknown; webhookId?: unknown } | undefined;
  if (channel && (typeof channel.type !== 'string' || typeof channel.webhookId !== 'string')) missing.push('channel.type/webhookId');
  if (alert.source !== 'tile') return `it watches ${JSON.stringify(alert.source)}, not a tile: a saved-search alert cannot be put back with the documented update fields`;
  if (missing.length > 0) return `its listing lacks ${missing.join(', ')}, so the run could not put it back after an update`;
  return undefined;
}
