import { randomBytes } from 'node:crypto';
import type fc from 'fast-check';
import {
  alertUpdateBody,
  alertUpdateBodyBadEnum,
  alertUpdateBodyObserve,
  type AlertReference,
  type AlertUpdateConstraints,
  type CompleteAlertUpdateBody,
} from '../../generators/index.ts';
import { choiceOf, noOpenValues, OpenValues } from '../pipes/open-values.ts';
import { isSuccess, type Exchange } from '../../transport/exchange.ts';
import { alertFromUpdate, ANOTHER_DASHBOARD, LIST_ENTRIES } from '../../rules/alerts.ts';
import { otherAlertChanges } from '../../rules/sequence.ts';
import { sameId } from '../../core/sameness.ts';
import { alertNotUpdatable, dashboardNamedOtherwise, putBackBody } from '../../apis/alert-restore.ts';
import { ALERT_SEQUENCE_STEPS, alertSequences, runAlertSequences } from './sequence-alerts.ts';
import { listedAlerts } from './sequence-alert-model.ts';
import { ONE_AT_A_TIME } from '../../engine/suite-types.ts';
import { authGroups, malformedJsonGroups } from '../auth-group.ts';
import { credentialFormsGroup } from '../credential-forms.ts';
import { neighbourhoodGroups } from '../neighbourhood.ts';
import { needsOtherTenant, otherAuthorization } from '../access-groups.ts';
import { READ_ONLY_FIELDS, readOnlyProbe, SHARED_READ_ONLY } from '../read-only-fields.ts';
import { OTHER_TENANT_PARTS } from '../../rules/access.ts';
import { REFUSED_WRITE_PARTS } from '../../rules/writes.ts';
import { TEXT_SAMPLES } from '../text-samples.ts';
import { accept, fromExample, observe, reject } from '../../engine/probe.ts';
import type { JudgedExchange, ProbeGroup, SuiteContext, SuiteDefinition } from '../../engine/suite-types.ts';
import { jsonText } from '../../core/json-text.ts';

const LIST = 'list alerts';

type Alert = Record<string, unknown> & { id?: string };

const listOf = (exchange: Exchange): Alert[] => {
  const data = (exchange.response?.json as { data?: unknown } | undefined)?.data;
  return Array.isArray(data) ? (data as Alert[]) : [];
};

/** The values of the two enums of an alert update. */
const ENUM_VALUES = Object.freeze({ thresholdType: ['above', 'below'], source: ['tile', 'search'] });

/**
 * Values outside each enum, each sent alone: other words, other case, padded, homoglyphs (Cyrillic а and ѕ), empty.
 */
const BAD_ENUMS: readonly (readonly ['thresholdType' | 'source', string])[] = Object.freeze([
  ['thresholdType', 'sideways'],
  ['thresholdType', 'Above'],
  ['thresholdType', 'BELOW'],
  ['thresholdType', 'above '],
  ['thresholdType', ' below'],
  ['thresholdType', '\u0430bove'],
  ['thresholdType', ''],
  ['source', 'dashboard'],
  ['source', 'Tile'],
  ['source', 'SEARCH'],
  ['source', 'tile '],
  ['source', '\u0455earch'],
  ['source', ''],
]);

/**
 * Thresholds of every kind whose bounds are not shown, each sent alone in the alert's own values: fractions a float32
 * does not hold, 2^24 + 1 (past a float32's integers), 2^31 + 1 (past 32 bits), negative, large; all within 2^53.
 */
const EDGE_THRESHOLDS: readonly number[] = Object.freeze([0.1, 999.89, -0.13, 16_777_217, 2 ** 31 + 1, -1e15 - 1]);

/**
 * How many observe probes the update group sends at most: fewer when `--runs` (or `--max-requests`) asks for a small
 * run.
 */
const OBSERVED = 4;
const observedCount = (runs: number): number => 1 + Math.min(OBSERVED - 1, runs);

/** The alert under test and how it was found, shared by the groups (which run in order). */
/** The names and messages of the listed alerts: the only text a must-accept update sends there. */
function texts(found: Found): string[] {
  const alerts = [...(found.original ? [found.original] : []), ...found.others];
  const listed = alerts.flatMap((alert) => [alert.name, alert.message]);
  return [...new Set(listed.filter((text): text is string => typeof text === 'string' && text !== ''))];
}

/**
 * The values of the update's open fields (`threshold`) that the listed alerts carry: the only ones a must-accept update
 * sends there. Undefined, with the group told why, when they carry none.
 */
function listedValues(context: SuiteContext, found: Found): OpenValues | undefined {
  const open = context.openFields('updateAlert');
  const values = new OpenValues();
  for (const alert of [...(found.listed ? [found.listed] : []), ...found.others]) values.learn(open, alert);
  const missing = open.filter((path) => !values.has(path));
  if (missing.length === 0) return values;
  context.unable(noOpenValues(missing, 'no listed alert carries one'));
  return undefined;
}

/** Complete updates of the alert under test whose open fields take only values the listed alerts carry. */
function mustAcceptBodies(
  context: SuiteContext,
  values: OpenValues,
  constraints: AlertUpdateConstraints,
): fc.Arbitrary<CompleteAlertUpdateBody> {
  const open = context.openFields('updateAlert');
  return alertUpdateBody(constraints).map((body) => values.fill(open, body, choiceOf(body))!);
}

interface Found {
  id?: string;
  /** The complete update body that puts it back as listed. */
  original?: Record<string, unknown>;
  /** Why no alert may be updated, when none may. */
  reason?: string;
  /** A dashboard and tile of another listed alert, other than the alert's own. */
  otherDashboard?: { dashboardId: string; tileId: string };
  /**
   * Dashboard, tile and webhook ids the target lists on updatable alerts: the references must-accept updates may send.
   */
  references: AlertReference[];
  /** Every other alert as first listed: one that changes while the run updates the alert is an incident. */
  others: Alert[];
  /** The alert under test as first listed. */
  listed?: Alert;
  /** The ids of every alert the run's own list showed. */
  listedIds: string[];
  /** The team of another team's alerts, when another team's list showed one. */
  otherTeam?: string;
}

async function pickAlert(context: SuiteContext, found: Found): Promise<void> {
  const listed = await context.send('listAlerts', { probe: accept('list alerts') });
  const alerts = listOf(listed);
  found.listedIds = alerts.flatMap((a) => (typeof a.id === 'string' ? [a.id] : []));
  const wanted = context.config.alerts?.alertId;
  const alert = wanted
    ? alerts.find((a) => String(a.id).toLowerCase() === wanted.toLowerCase())
    : alerts.find((a) => alertNotUpdatable(a) === undefined);
  const notUpdatable = alert ? alertNotUpdatable(alert) : undefined;
  // A list that names the dashboard otherwise fails alerts.dashboard-mapping: the writes that send it back are skipped.
  const misnamed = (alert ? [alert] : alerts).map(dashboardNamedOtherwise).find((why) => why !== undefined);
  if (!alert || typeof alert.id !== 'string' || notUpdatable) {
    found.reason = !isSuccess(listed)
      ? `the alert list was not read (${listed.response?.status ?? listed.failure?.code}), so no alert is ` +
        'known to update'
      : misnamed
        ? misnamed
        : wanted
          ? `ALERT_ID ${wanted} ${alert ? `may not be updated: ${notUpdatable}` : 'is not listed'}`
          : `none of the ${alerts.length} listed alert(s) can be put back after an update (a tile alert that ` +
            'lists every update field is needed); set ALERT_ID to one';
    return;
  }
  found.id = alert.id;
  found.listed = alert;
  found.original = putBackBody(alert);
  found.others = alerts.filter((a) => a !== alert);
  found.references = alerts
    .filter((a) => alertNotUpdatable(a) === undefined && a.dashboard !== '' && a.tileId !== '')
    .map((a) => ({
      dashboardId: a.dashboard as string,
      tileId: a.tileId as string,
      webhookId: (a.channel as { webhookId: string }).webhookId,
    }));
  const other = alerts.find(
    (a) =>
      a !== alert &&
      typeof a.dashboard === 'string' &&
      a.dashboard !== '' &&
      a.dashboard !== alert.dashboard &&
      typeof a.tileId === 'string' &&
      a.tileId !== '',
  );
  if (other) found.otherDashboard = { dashboardId: other.dashboard as string, tileId: other.tileId as string };
}

/** The alerts of `before` that `listed` shows with another value (or not at all), each with both forms. */
function changedOthers(
  before: readonly Alert[],
  listed: readonly Alert[],
): { id: string; before: Alert; after: Alert | undefined }[] {
  if (listed.length === 0) return [];
  return before.flatMap((alert) => {
    const after = listed.find((entry) => sameId(entry.id, alert.id));
    return after && otherAlertChanges(alert, after, '').length === 0
      ? []
      : [{ id: String(alert.id), before: alert, after }];
  });
}

/** Puts the alert back as found when a group changed it; a failure is an incident every report shows first. */
async function putBack(context: SuiteContext, found: Found, changed: boolean): Promise<void> {
  if (!changed || !found.id || !found.original) return;
  const restored = await context.send('updateAlert', {
    params: { id: found.id },
    json: found.original,
    probe: accept('put the alert back as found', { evidence: false, restores: true }),
  });
  if (!isSuccess(restored)) {
    context.incident(
      `Alert ${found.id} was updated and putting it back FAILED ` +
        `(${restored.response?.status ?? restored.failure?.code}): restore it by hand ` +
        `to ${jsonText(found.original)}`,
    );
  }
}

const OTHER_TENANT = 'access.other-tenant';
const UNKNOWN = 'no alert is known to update';
// The groups that write the run's alert (or could, on a faulty target), in the one order they run in: each reads it
// back or puts it back, so no two may overlap.
const INVALID_ENUMS = 'invalid enums';
const UPDATES = 'update, list, put back';
const SEQUENCES = 'model-based sequences of alert updates';
const OTHER_TENANT_UPDATE = 'another tenant: updateAlert';
const OTHER_TENANT_LIST = 'another tenant: listAlerts';
const READ_ONLY = 'fields only the server writes: updateAlert';

/**
 * Another team's token on the run's alert (an update with its own listed values, to be refused) and on its own list
 * (which must hold none of the run's alerts); then updates of the alert that also send a field only the server
 * writes, each followed by a list, and the alert put back.
 */
function alertAccessGroups(found: Found): ProbeGroup[] {
  return [
    {
      name: OTHER_TENANT_UPDATE,
      operations: ['updateAlert'],
      feeds: [`${OTHER_TENANT}#${OTHER_TENANT_PARTS.refused}`],
      requires: needsOtherTenant('alerts'),
      after: [SEQUENCES],
      estimate: () => 1,
      // The alert put back when the update was taken.
      putBacks: { most: 1, estimated: 0 },
      async run(context) {
        if (!found.id || !found.original) return context.unable(found.reason ?? UNKNOWN);
        const exchange = await context.send('updateAlert', {
          params: { id: found.id },
          json: found.original,
          authorization: otherAuthorization('alerts', context.config) ?? null,
          probe: reject("an update of the run's alert with another team's token", OTHER_TENANT, {
            part: OTHER_TENANT_PARTS.refused,
          }),
        });
        await putBack(context, found, isSuccess(exchange));
      },
    },
    {
      name: OTHER_TENANT_LIST,
      operations: ['listAlerts'],
      feeds: [`${OTHER_TENANT}#${OTHER_TENANT_PARTS.list}`],
      requires: needsOtherTenant('alerts'),
      after: [LIST],
      estimate: () => 1,
      async run(context) {
        if (found.listedIds.length === 0)
          return context.unable("the run's own list showed no alert, so none can be looked for in another's");
        const exchange = await context.send('listAlerts', {
          authorization: otherAuthorization('alerts', context.config) ?? null,
          probe: accept("another team's list", {
            rules: [OTHER_TENANT],
            part: OTHER_TENANT_PARTS.list,
            expect: { runAlerts: found.listedIds },
          }),
        });
        const ownTeam = found.listed?.team;
        found.otherTeam = listOf(exchange)
          .map((alert) => alert.team)
          .find((team): team is string => typeof team === 'string' && team !== ownTeam);
      },
    },
    {
      name: READ_ONLY,
      operations: ['updateAlert', 'listAlerts'],
      // After the other team's list, which finds the team an alert may be moved to.
      after: [OTHER_TENANT_UPDATE, OTHER_TENANT_LIST],
      // Each update and the list after it, then the put-back when they were accepted.
      estimate: () => 2 * READ_ONLY_FIELDS + 1,
      // And the alert put back in the run's team when it was moved to another.
      putBacks: { most: 2, estimated: 1 },
      async run(context) {
        const { id, original, listed } = found;
        if (!id || !original || !listed) return context.unable(found.reason ?? UNKNOWN);
        const anotherTeam = found.otherTeam;
        const sent = [
          { field: 'id', value: found.others.find((a) => typeof a.id === 'string')?.id ?? randomHex() },
          { field: 'team', value: anotherTeam ?? randomHex() },
          ...SHARED_READ_ONLY,
        ];
        let changed = false;
        for (const { field, value } of sent) {
          const expected = { sent: { [field]: value }, kept: field === 'updatedAt' ? {} : { [field]: listed[field] } };
          const exchange = await context.send('updateAlert', {
            params: { id },
            json: { ...original, [field]: value },
            probe: readOnlyProbe(`an alert update that also sends ${field}`, expected),
          });
          changed ||= isSuccess(exchange);
          await context.send('listAlerts', {
            probe: readOnlyProbe(
              `the list after an update that also sent ${field}`,
              { ...expected, listed: id },
              {
                intent: 'accept',
              },
            ),
          });
          const moved =
            field === 'team' &&
            isSuccess(exchange) &&
            (exchange.response.json as { data?: Alert })?.data?.team === value;
          if (moved && value === anotherTeam)
            await context.send('updateAlert', {
              params: { id },
              json: { ...original, team: listed.team },
              authorization: otherAuthorization('alerts', context.config) ?? null,
              probe: accept("put the alert back in the run's team, with the team it was moved to", {
                evidence: false,
                restores: true,
              }),
            });
        }
        await putBack(context, found, changed);
      },
    },
  ];
}

/** A random id of 24 hexadecimal digits, as the alerts API writes its ids. */
const randomHex = (): string => randomBytes(12).toString('hex');

/**
 * The alerts suite: list, invalid enums, must-accept updates then list, observed updates, put back, malformed bodies,
 * credentials.
 */
export function alertsSuite(): SuiteDefinition {
  const found: Found = { references: [], others: [], listedIds: [] };
  const alertParams = (): Record<string, string> | { unable: string } =>
    found.id ? { id: found.id } : { unable: found.reason ?? 'no alert is known to update' };
  return {
    name: 'alerts',
    operations: ['updateAlert', 'listAlerts'],
    // One alert: its writers run one after another (see INVALID_ENUMS), reads that judge no state of it beside them.
    chained: true,
    groups: [
      {
        name: LIST,
        operations: ['listAlerts'],
        feeds: [`alerts.dashboard-mapping#${LIST_ENTRIES}`],
        estimate: () => 1,
        run: (context) => pickAlert(context, found),
      },
      invalidEnumsGroup(found),
      updatesGroup(found),
      sequencesGroup(found),
      ...alertAccessGroups(found),
      ...malformedJsonGroups([{ operationId: 'updateAlert', params: alertParams, after: [READ_ONLY] }]),
      ...authGroups([
        {
          operationId: 'updateAlert',
          api: 'alerts',
          after: [READ_ONLY],
          request: () =>
            found.id && found.original
              ? { params: { id: found.id }, json: found.original }
              : { unable: found.reason ?? 'no alert is known to update' },
        },
        { operationId: 'listAlerts', api: 'alerts', after: [LIST], request: () => ({}) },
      ]),
      credentialFormsGroup({ operationId: 'listAlerts', api: 'alerts', after: [LIST], request: () => ({}) }),
      ...neighbourhoodGroups([
        {
          operationId: 'updateAlert',
          // Its odd updates keep every field the alert is put back with; they run after the last group that writes it.
          after: [READ_ONLY],
          request: () =>
            found.id && found.original
              ? { params: { id: found.id }, bodies: [found.original] }
              : { unable: found.reason ?? 'no alert is known to update' },
          settle: (context, exchanges) =>
            putBack(
              context,
              found,
              exchanges.some((exchange) => exchange.request.method === 'PUT' && isSuccess(exchange)),
            ),
        },
        // A list with the run's token, after the last group that may leave the alert changed until it puts it back.
        { operationId: 'listAlerts', after: ['neighbourhood: updateAlert'], request: () => ({}) },
      ]),
    ],
  };
}

/** The model-based sequences of updates and lists of the alert under test, the alert put back after. */
function sequencesGroup(found: Found): ProbeGroup {
  return {
    name: SEQUENCES,
    operations: ['updateAlert', 'listAlerts'],
    feeds: [
      'alerts.update-isolated',
      'alerts.update-applies',
      'alerts.concurrent-updates',
      `writes.refused-unchanged#${REFUSED_WRITE_PARTS.sequences}`,
    ],
    sequences: true,
    after: [UPDATES],
    estimate: (runs) => alertSequences(runs) * (2 + ALERT_SEQUENCE_STEPS) + 1,
    putBacks: { most: 1, estimated: 1 },
    async run(context) {
      if (!found.id || !found.original) return context.unable(found.reason ?? 'no alert is known to update');
      const original = found.original;
      const own = {
        dashboardId: original.dashboardId as string,
        tileId: original.tileId as string,
        webhookId: (original.channel as { webhookId: string }).webhookId,
      };
      const values = listedValues(context, found);
      if (!values) return;
      const bodies = mustAcceptBodies(context, values, {
        interval: original.interval as string,
        source: original.source as 'tile' | 'search',
        channelType: (original.channel as { type: string }).type,
        references: found.references.length > 0 ? found.references : [own],
        texts: texts(found),
      });
      if (context.config.concurrency < 2)
        context.unable(ONE_AT_A_TIME, { operations: ['updateAlert'], feeds: ['alerts.concurrent-updates'] });
      let changed = false;
      const reported = new Set<string>();
      await runAlertSequences(context, found.id, bodies, (exchange) => {
        changed ||= exchange.operationId === 'updateAlert' && isSuccess(exchange);
        for (const change of changedOthers(found.others, listedAlerts(exchange))) {
          if (reported.has(change.id)) continue;
          reported.add(change.id);
          context.incident(
            `Alert ${change.id} changed while the run updated alert ${found.id} (the run never wrote ` +
              `to it): it was ${jsonText(change.before)}, it is ${jsonText(change.after)}`,
          );
        }
      });
      await putBack(context, found, changed);
    },
  };
}

/** Updates of the alert under test: each field, edge thresholds, text of every kind; the alert put back after. */
function updatesGroup(found: Found): ProbeGroup {
  return {
    name: UPDATES,
    operations: ['updateAlert', 'listAlerts'],
    feeds: ['alerts.dashboard-mapping', 'alerts.update-applies'],
    after: [INVALID_ENUMS],
    estimate: (runs) => 2 * runs + 3 + observedCount(runs) + EDGE_THRESHOLDS.length + 2 * TEXT_SAMPLES.length,
    putBacks: { most: 1, estimated: 1 },
    async run(context) {
      if (!found.id || !found.original) return context.unable(found.reason ?? 'no alert is known to update');
      const original = found.original;
      const params = { id: found.id };
      // What no update changes: the alert's id and createdAt, as listed before the updates.
      const createdAt = found.listed?.createdAt;
      const kept = { id: found.id, ...(createdAt === undefined ? {} : { createdAt }) };
      let changed = false;
      const update = async (
        sent: Record<string, unknown>,
        label: string,
        more: Parameters<typeof accept>[1] = {},
      ): Promise<JudgedExchange> => {
        const probe = accept(label, { ...more, expect: { ...more.expect, kept } });
        const updated = await context.send('updateAlert', { params, json: sent, probe });
        if (!isSuccess(updated)) return updated;
        changed = true;
        await context.send('listAlerts', {
          probe: accept(`list after ${label}`, {
            expect: { alert: { id: found.id, ...alertFromUpdate(sent) }, kept },
          }),
        });
        return updated;
      };
      // Must-accept: complete bodies, the alert's own interval, references the target lists.
      const own = {
        dashboardId: original.dashboardId as string,
        tileId: original.tileId as string,
        webhookId: (original.channel as { webhookId: string }).webhookId,
      };
      const references = found.references.length > 0 ? found.references : [own];
      const values = listedValues(context, found);
      if (!values) return;
      const arbitrary = mustAcceptBodies(context, values, {
        interval: original.interval as string,
        source: original.source as 'tile' | 'search',
        channelType: (original.channel as { type: string }).type,
        references,
        texts: texts(found),
      });
      await context.eachExample(
        'alert update',
        arbitrary,
        (ex) => update(ex.value, 'a complete alert update', fromExample(ex)),
        {
          inOrder: true,
          async shrink(value, more) {
            const exchange = await context.send('updateAlert', {
              params,
              json: value,
              probe: accept('a complete alert update', more),
            });
            changed ||= isSuccess(exchange);
            return exchange;
          },
        },
      );
      if (found.otherDashboard)
        await update(
          { ...original, ...found.otherDashboard },
          'an update to the dashboard and tile of another listed alert',
          { part: ANOTHER_DASHBOARD },
        );
      else
        context.unable('no other listed alert has a dashboard and a tile to move the alert to', {
          feeds: [`alerts.dashboard-mapping#${ANOTHER_DASHBOARD}`],
        });
      // Observe: what the documents leave open; a rejection is no finding, a 2xx is judged, a 5xx is a finding.
      const observed = [
        // The alert's own values but a name or message of every kind of text: an accepted answer carries it back.
        ...TEXT_SAMPLES.flatMap(({ kind, text }) =>
          ['name', 'message'].map((field) => ({
            label: `the alert's own values with a ${field} of ${kind}`,
            json: { ...original, [field]: text },
            more: {},
          })),
        ),
        // The alert's own values but a threshold of every kind: an accepted answer shows the number kept.
        ...EDGE_THRESHOLDS.map((threshold) => ({
          label: `the alert's own values with threshold ${threshold}`,
          json: { ...original, threshold },
          more: {},
        })),
        {
          label: 'a dashboardId that is not a 24-hex id',
          json: { ...original, dashboardId: 'conformance-dashboard' },
          more: {},
        },
        ...context
          .examples('observed alert update', alertUpdateBodyObserve({ references }), OBSERVED - 1)
          .map((ex) => ({
            label: 'an update the documents neither require nor forbid',
            json: ex.value as Record<string, unknown>,
            more: fromExample(ex),
          })),
      ];
      // They wait on no answer (each is judged by its own): at once.
      const exchanges = await Promise.all(
        observed.map(({ label, json, more }) =>
          context.send('updateAlert', { params, json, probe: observe(label, { ...more, expect: { kept } }) }),
        ),
      );
      changed ||= exchanges.some(isSuccess);
      await putBack(context, found, changed);
    },
  };
}

/** Updates of the alert under test with each bad enum value alone, then a list that must show it unchanged. */
function invalidEnumsGroup(found: Found): ProbeGroup {
  return {
    name: INVALID_ENUMS,
    operations: ['updateAlert', 'listAlerts'],
    feeds: ['alerts.enums', `writes.refused-unchanged#${REFUSED_WRITE_PARTS.alert}`],
    after: [LIST],
    estimate: (runs) => 3 + BAD_ENUMS.length + runs,
    // The alert put back when a rejection probe was taken.
    putBacks: { most: 1, estimated: 0 },
    async run(context) {
      // Without a real alert a 404 would pass for an enum rejection; without its complete body a strict target's
      // 400 would.
      if (!found.id || !found.original) return context.unable(found.reason ?? 'no alert is known to update');
      const params = { id: found.id };
      const body = (change: Record<string, unknown>): Record<string, unknown> => ({ ...found.original, ...change });
      let changed = false;
      const send = async (request: Parameters<SuiteContext['send']>[1]): Promise<JudgedExchange> => {
        const exchange = await context.send('updateAlert', request);
        changed ||= isSuccess(exchange) && exchange.request.params.id === found.id;
        return exchange;
      };
      // Each bad value alone in the alert's own complete body, so that its refusal is its own.
      await Promise.all([
        ...BAD_ENUMS.map(([field, value]) =>
          send({
            params,
            json: body({ [field]: value }),
            probe: reject(`${field} ${JSON.stringify(value)}`, 'alerts.enums'),
          }),
        ),
        context.eachExample('bad enum', alertUpdateBodyBadEnum.arbitrary(), (ex) => {
          const drawn = ex.value as Record<string, unknown>;
          const alone = ENUM_VALUES.thresholdType.includes(drawn.thresholdType as string)
            ? { source: drawn.source }
            : { thresholdType: drawn.thresholdType };
          return send({
            params,
            json: body(alone),
            probe: reject('an enum field outside its values', 'alerts.enums', fromExample(ex)),
          });
        }),
        send({ params, json: body({ threshold: 'high' }), probe: reject('threshold as a string') }),
        send({
          params: { id: `conformance-unknown-${Date.now()}` },
          json: found.original,
          probe: reject('an unknown alert id'),
        }),
      ]);
      // Every update above refused: the alert must list as it was (writes.refused-unchanged).
      if (!changed)
        await context.send('listAlerts', {
          probe: accept('the list after refused updates of the alert', {
            rules: ['writes.refused-unchanged'],
            part: REFUSED_WRITE_PARTS.alert,
            expect: { refusedUnchanged: { alert: { id: found.id, ...alertFromUpdate(found.original) } } },
          }),
        });
      await putBack(context, found, changed);
    },
  };
}
