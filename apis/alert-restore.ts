/** What a field of a listed alert must be for the update body to carry it back. */
type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === 'string';
const isNumber: FieldCheck = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * The listed fields that the run sends back, as the update body's nine fields (the listing's `dashboard` is the
 * body's `dashboardId`), each with the type the alerts document gives it.
 */
const RESTORED_FIELDS: readonly (readonly [listed: string, sent: string, type: string, check: FieldCheck])[] =
  Object.freeze([
    ['threshold', 'threshold', 'a number', isNumber],
    ['interval', 'interval', 'a string', isString],
    ['thresholdType', 'thresholdType', '"above" or "below"', (value) => value === 'above' || value === 'below'],
    ['source', 'source', '"tile" or "search"', (value) => value === 'tile' || value === 'search'],
    ['dashboard', 'dashboardId', 'a string', isString],
    ['tileId', 'tileId', 'a string', isString],
    [
      'channel',
      'channel',
      'an object with string `type` and `webhookId`',
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        isString((value as Record<string, unknown>).type) &&
        isString((value as Record<string, unknown>).webhookId),
    ],
    ['name', 'name', 'a string', isString],
    ['message', 'message', 'a string', isString],
  ]);

/**
 * The update body that puts an alert back as it was listed: its nine update fields, `dashboard` sent as `dashboardId`.
 */
export function putBackBody(alert: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    RESTORED_FIELDS.filter(([listed]) => alert[listed] !== undefined && alert[listed] !== null).map(
      ([listed, sent]) => [sent, alert[listed]],
    ),
  );
}

/**
 * Why the run does not know a listed alert's dashboard when its listing names it otherwise (`dashboardId` where the
 * alert record names it `dashboard`): a finding of `alerts.dashboard-mapping` about the target, never a settings
 * error; undefined when the listing names it `dashboard`, or names none.
 */
export function dashboardNamedOtherwise(alert: Record<string, unknown>): string | undefined {
  const named = (value: unknown): boolean => value !== undefined && value !== null;
  return !named(alert.dashboard) && named(alert.dashboardId)
    ? 'the alert list names the dashboard `dashboardId`, not `dashboard` as the alert record does (a finding of ' +
        'alerts.dashboard-mapping on listAlerts), so no update knows which dashboard to send back'
    : undefined;
}

/**
 * Why the run may not update an alert as listed, or undefined when it may: the run sends complete update bodies
 * and puts the alert back from its listing, so every update field must be listed with its documented type, and
 * the alert must watch a tile (a saved-search alert has a `savedSearch` that lists omit and no update can set).
 */
export function alertNotUpdatable(alert: Record<string, unknown>): string | undefined {
  if (alert.source === 'search') {
    return (
      'it is a saved-search alert (source "search"): its savedSearch is not in the list and no update body ' +
      'can set it, so the run could not put it back'
    );
  }
  const missing = RESTORED_FIELDS.filter(([listed]) => alert[listed] === undefined || alert[listed] === null);
  if (missing.length > 0) {
    const fields = missing.map(([listed, sent]) =>
      listed === sent ? `\`${listed}\`` : `\`${listed}\` (the update's \`${sent}\`)`,
    );
    return `its listing lacks ${fields.join(', ')}, so the run could not put it back`;
  }
  const mistyped = RESTORED_FIELDS.filter(([listed, , , check]) => !check(alert[listed]));
  if (mistyped.length > 0) {
    const values = mistyped.map(([listed, , type]) => `\`${listed}\` is ${JSON.stringify(alert[listed])}, not ${type}`);
    return `its listed ${values.join('; ')}, so the run could not send it back`;
  }
  return undefined;
}
