import { alertUpdateBody, alertUpdateBodyBadEnum } from '../generators/index.ts';
import type { Exchange } from '../core/exchange.ts';
import { alertFromUpdate } from '../rules/alerts.ts';
import { authGroup, malformedJsonGroup } from './support/auth-group.ts';
import { accept, fromExample, reject } from './support/probe.ts';
import type { SuiteContext, SuiteDefinition } from './support/suite-types.ts';

/** Fields of a listed alert that an update can set back, as update body fields. */
const RESTORABLE = ['threshold', 'interval', 'thresholdType', 'source', 'tileId', 'channel', 'name', 'message'] as const;

type Alert = Record<string, unknown> & { id?: string };

const listOf = (exchange: Exchange): Alert[] => {
  const data = (exchange.response?.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data as Alert[]) : [];
};

/** An update body that puts an alert back as it was listed. */
function restoreBody(alert: Alert): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of RESTORABLE) if (alert[field] !== undefined && alert[field] !== null) body[field] = alert[field];
  if (typeof alert.dashboard === 'string') body.dashboardId = alert.dashboard;
  return body;
}

/** The alert under test and how it was found, shared by the groups (which run in order). */
interface Found {
  id?: string;
  original?: Record<string, unknown>;
}

async function pickAlert(context: SuiteContext, found: Found): Promise<void> {
  const listed = await context.send('listAlerts', { probe: accept('read', 'list alerts') });
  const alerts = listOf(listed);
  const wanted = context.config.alerts?.alertId;
  const alert = wanted ? alerts.find((a) => String(a.id).toLowerCase() === wanted.toLowerCase()) : alerts[0];
  found.id = wanted ?? (typeof alert?.id === 'string' ? alert.id : undefined);
  if (alert) found.original = restoreBody(alert);
}

/** The alerts suite: list, invalid enums, update then list then put back, malformed bodies, credentials. */
export function alertsSuite(): SuiteDefinition {
  const found: Found = {};
  const alertParams = (): Record<string, string> => ({ id: found.id ?? 'conformance-no-alert' });
  return {
  name: 'alerts',
  operations: ['updateAlert', 'listAlerts'],
  sequential: true,
  groups: [
    { name: 'list alerts', klass: 'read', operations: ['listAlerts'], estimate: () => 1, run: (context) => pickAlert(context, found) },
    {
      name: 'invalid enums',
      klass: 'read',
      operations: ['updateAlert'],
      estimate: (runs) => 4 + runs,
      async run(context) {
        // Without a real alert, a 404 would pass for an enum rejection: send nothing, so the rule shows as skipped.
        if (!found.id) return;
        await Promise.all([
          context.send('updateAlert', { params: alertParams(), json: { thresholdType: 'sideways' }, probe: reject('thresholdType "sideways"', 'alerts.enums') }),
          context.send('updateAlert', { params: alertParams(), json: { source: 'dashboard' }, probe: reject('source "dashboard"', 'alerts.enums') }),
          ...context.examples('bad enum', alertUpdateBodyBadEnum.arbitrary()).map((ex) =>
            context.send('updateAlert', { params: alertParams(), json: ex.value, probe: reject('an enum field outside its values', 'alerts.enums', fromExample(ex)) })),
          context.send('updateAlert', { params: alertParams(), json: { threshold: 'high' }, probe: reject('threshold as a string') }),
          context.send('updateAlert', { params: { id: `conformance-unknown-${Date.now()}` }, json: { name: 'conformance' }, probe: reject('an unknown alert id') }),
        ]);
      },
    },
    {
      name: 'update, list, put back',
      klass: 'write',
      operations: ['updateAlert', 'listAlerts'],
      estimate: (runs) => 2 * runs + 1,
      async run(context) {
        if (!found.id) return;
        const original = found.original ?? {};
        const ids = Object.fromEntries(Object.entries({
          dashboardId: original.dashboardId,
          tileId: original.tileId,
          webhookId: (original.channel as { webhookId?: unknown } | undefined)?.webhookId,
        }).filter(([, v]) => typeof v === 'string')) as { dashboardId?: string; tileId?: string; webhookId?: string };
        for (const ex of context.examples('alert update', alertUpdateBody({ ids }))) {
          const sent = ex.value as Record<string, unknown>;
          const updated = await context.send('updateAlert', { params: alertParams(), json: sent, probe: accept('write', 'a valid alert update', fromExample(ex)) });
          if (!updated.response || updated.response.status >= 300) continue;
          await context.send('listAlerts', { probe: accept('read', 'list after an update', { expect: { alert: { id: found.id, ...alertFromUpdate(sent) } } }) });
        }
        if (!found.original) return;
        const restored = await context.send('updateAlert', { params: alertParams(), json: found.original, probe: accept('write', 'put the alert back as found', { restores: true }) });
        const ok = restored.response !== undefined && restored.response.status < 300;
        context.created({ kind: 'alert-update', id: found.id, operation: 'updateAlert', note: ok ? 'updated, then put back as found' : `updated; putting it back FAILED (${restored.response?.status ?? restored.failure?.code}): restore it by hand` });
      },
    },
    malformedJsonGroup([{ operationId: 'updateAlert', params: alertParams }]),
    authGroup([
      { operationId: 'updateAlert', api: 'alerts', request: () => ({ params: alertParams(), json: found.original ?? { name: 'conformance credentials probe' } }) },
      { operationId: 'listAlerts', api: 'alerts', request: () => ({}) },
    ]),
  ],
};
}
