/** A complete alert update body whose every field differs from that of another `n`'s. */
export function completeAlertUpdate(n: number): Record<string, unknown> {
  return {
    name: `alert ${n}`,
    message: `message ${n}`,
    threshold: n,
    interval: `${n}m`,
    thresholdType: n % 2 === 1 ? 'above' : 'below',
    source: n % 2 === 1 ? 'tile' : 'search',
    channel: { type: 'webhook', webhookId: `hook ${n}` },
    tileId: `tile ${n}`,
    dashboardId: `dashboard ${n}`,
  };
}
