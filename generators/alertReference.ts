/**
 * The references of one listed alert that an update body may point at: its dashboard, its tile and its channel's
 * webhook.
 */
export type AlertReference = {
  dashboardId: string;
  tileId: string;
  webhookId: string;
};
