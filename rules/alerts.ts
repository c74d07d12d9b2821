import { jsonText } from '../core/json-text.ts';
import { APIS } from '../apis/index.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import {
  asObject,
  certainBody,
  documentedProperties,
  payloadPath,
  payloadSchema,
  probes,
  requestBody,
  sameId,
} from './body.ts';
import { intentViolations } from './intent.ts';
import { sameStoredValue } from '../core/sameness.ts';
import { alertIsolationViolations, SEQUENCE_PART } from './sequence.ts';
import { documentedItems, documentedProperty, documentedType, omitKeys, subsetViolations } from './subset.ts';

/** The probe part of an update that moves the alert to another listed alert's dashboard. */
export const ANOTHER_DASHBOARD = 'a dashboard other than the stored one';

/** The part of `alerts.dashboard-mapping` that list entries give: they name the dashboard `dashboard`. */
export const LIST_ENTRIES = 'list entries name it dashboard';

/** The list entries that name the dashboard `dashboardId` (the alert record names it `dashboard`). */
function listedDashboardIds(ex: Exchange): Violation[] {
  return (data(ex.response?.json) as unknown[]).flatMap((item, i) => {
    const entry = asObject(item);
    return entry && 'dashboardId' in entry
      ? [
          {
            path: `${payloadPath(ex)}/${i}/dashboardId`,
            expected:
              'absent: the alert record names the dashboard `dashboard`' +
              ('dashboard' in entry ? '' : ' (this entry has none)'),
            actual: entry.dashboardId,
          },
        ]
      : [];
  });
}

/** Fields of the update response that list entries omit. */
export const LIST_OMITTED = Object.freeze(['savedSearch', 'groupBy', 'silenced']);

/** The payload of an alerts response: the field its API's envelope names (`data`). */
const data = (json: unknown): unknown => asObject(json)?.[APIS.alerts.envelope.payload];

/** What an alert record must show of an update body: `dashboardId` becomes `dashboard`. */
export function alertFromUpdate(body: Record<string, unknown>): Record<string, unknown> {
  const { dashboardId, ...rest } = body;
  return dashboardId === undefined ? rest : { ...rest, dashboard: dashboardId };
}

/** Rules of the alerts API. */
export const alertRules: Rule[] = [
  {
    id: 'alerts.envelope',
    title: 'Alerts responses wrap their payload in data',
    basis: 'stated',
    sentence: 'Update answers `{ data: Alert }`, list answers `{ data: [Alert, ...] }`.',
    probedBy: 'every alerts response',
    operations: ['updateAlert', 'listAlerts'],
    applies: (ex) => isSuccess(ex),
    check: (ex) => {
      const value = data(ex.response?.json);
      if (ex.operationId === 'listAlerts') {
        if (!Array.isArray(value)) return [{ path: payloadPath(ex), expected: 'an array of alerts', actual: value }];
        return value.flatMap((item, i) =>
          asObject(item) ? [] : [{ path: `${payloadPath(ex)}/${i}`, expected: 'an alert object', actual: item }],
        );
      }
      return asObject(value)
        ? []
        : [{ path: payloadPath(ex), expected: 'the alert object', actual: value ?? ex.response?.json }];
    },
  },
  {
    id: 'alerts.dashboard-mapping',
    title: 'dashboardId comes back as dashboard',
    basis: 'stated',
    sentence:
      "An update's `dashboardId` comes back as `dashboard` with the same value, and `dashboardId` does not come " +
      'back; list entries, alert records too, name it `dashboard` ("the alert record names it `dashboard`"): a list ' +
      'that names it otherwise fails this rule (it is a finding about the target, never a settings error).',
    probedBy:
      'every update that sends one, including one that sends a dashboard other than the stored one (taken ' +
      'from another listed alert)',
    operations: ['updateAlert', 'listAlerts'],
    parts: [
      { name: 'an update that sends one', operations: ['updateAlert'] },
      { name: ANOTHER_DASHBOARD, operations: ['updateAlert'] },
      { name: LIST_ENTRIES, operations: ['listAlerts'] },
    ],
    partOf: (ex) =>
      ex.operationId === 'listAlerts'
        ? LIST_ENTRIES
        : ex.probe.part === ANOTHER_DASHBOARD
          ? ANOTHER_DASHBOARD
          : 'an update that sends one',
    applies: (ex) =>
      isSuccess(ex) &&
      (ex.operationId === 'listAlerts'
        ? Array.isArray(data(ex.response?.json))
        : certainBody(ex)?.dashboardId !== undefined && asObject(data(ex.response?.json)) !== undefined),
    check: (ex, ctx) => {
      if (ex.operationId === 'listAlerts') return listedDashboardIds(ex);
      const alert = asObject(data(ex.response?.json))!;
      const violations: Violation[] = [];
      const sent = certainBody(ex)!.dashboardId;
      const documented = documentedProperty(payloadSchema(ctx.operation), 'dashboard');
      // The value an update sent at once answers is judged against every order of them (alerts.concurrent-updates).
      if (!sameStoredValue(sent, alert.dashboard, documentedType(documented)) && !ex.together)
        violations.push({
          path: `${payloadPath(ex)}/dashboard`,
          expected: jsonText(sent),
          actual: alert.dashboard,
        });
      if ('dashboardId' in alert)
        violations.push({
          path: `${payloadPath(ex)}/dashboardId`,
          expected: 'absent (the record names it dashboard)',
          actual: alert.dashboardId,
        });
      return violations;
    },
  },
  {
    id: 'alerts.update-fields',
    title: 'The update response carries savedSearch, groupBy and silenced',
    basis: 'stated',
    sentence: 'The update response carries `savedSearch`, `groupBy` and `silenced`.',
    probedBy: 'every update',
    operations: ['updateAlert'],
    applies: (ex) => isSuccess(ex) && asObject(data(ex.response?.json)) !== undefined,
    check: (ex) => {
      const alert = asObject(data(ex.response?.json))!;
      return LIST_OMITTED.filter((field) => !(field in alert)).map((field) => ({
        path: `${payloadPath(ex)}/${field}`,
        expected: 'present',
      }));
    },
  },
  {
    id: 'alerts.list-omits',
    title: 'List entries omit savedSearch, groupBy and silenced',
    basis: 'stated',
    sentence: 'List entries carry none of `savedSearch`, `groupBy`, `silenced`.',
    probedBy: 'every list',
    operations: ['listAlerts'],
    applies: (ex) => isSuccess(ex) && Array.isArray(data(ex.response?.json)),
    check: (ex) =>
      (data(ex.response?.json) as unknown[]).flatMap((item, i) =>
        // `null` is no value (RULES.md): an entry that writes one for a field carries none of it.
        LIST_OMITTED.filter(
          (field) => asObject(item) && field in asObject(item)! && !sameStoredValue(null, asObject(item)![field]),
        ).map((field) => ({
          path: `${payloadPath(ex)}/${i}/${field}`,
          expected: 'absent from list entries',
          actual: asObject(item)![field],
        })),
      ),
  },
  {
    id: 'alerts.update-applies',
    title: 'Alert updates are applied and persisted',
    basis: 'inferred',
    sentence:
      "The values sent come back in the update response and in the list afterwards; the alert's `id` and " +
      '`createdAt` do not change.',
    probedBy: 'update, then list',
    operations: ['updateAlert', 'listAlerts'],
    parts: [
      { name: 'the update answer', operations: ['updateAlert'] },
      { name: 'the list afterwards', operations: ['listAlerts'] },
    ],
    partOf: (ex) => (ex.operationId === 'updateAlert' ? 'the update answer' : 'the list afterwards'),
    applies: (ex) =>
      isSuccess(ex) &&
      (ex.operationId === 'updateAlert'
        ? // An update sent at once with others is judged against every order of them (alerts.concurrent-updates).
          !ex.together && certainBody(ex) !== undefined && asObject(data(ex.response?.json)) !== undefined
        : asObject(ex.probe.expect?.alert) !== undefined && Array.isArray(data(ex.response?.json))),
    check: (ex, ctx) => {
      if (ex.operationId === 'updateAlert')
        return [
          ...subsetViolations(
            alertFromUpdate(documentedProperties(certainBody(ex)!, ctx.operation)),
            data(ex.response?.json),
            payloadPath(ex),
            payloadSchema(ctx.operation),
          ),
          ...keptViolations(ex, data(ex.response?.json), payloadPath(ex)),
        ];
      const expected = asObject(ex.probe.expect?.alert)!;
      const list = data(ex.response?.json) as unknown[];
      const index = list.findIndex((item) => sameId(asObject(item)?.id, expected.id));
      if (index === -1) return [{ path: payloadPath(ex), expected: `an entry with id ${String(expected.id)}` }];
      const at = `${payloadPath(ex)}/${index}`;
      return [
        ...subsetViolations(
          omitKeys(expected, new Set(LIST_OMITTED)),
          list[index],
          at,
          documentedItems(payloadSchema(ctx.operation)),
        ),
        ...keptViolations(ex, list[index], at),
      ];
    },
  },
  {
    id: 'alerts.update-isolated',
    title: 'An alert update changes only the alert it names',
    basis: 'inferred',
    sentence: 'An update changes only the alert it names: every other listed alert reads the same before and after it.',
    probedBy: 'the list before the first update and after every update of a sequence',
    operations: ['updateAlert', 'listAlerts'],
    parts: [{ name: SEQUENCE_PART }],
    partOf: () => SEQUENCE_PART,
    applies: (ex) =>
      isSuccess(ex) &&
      (ex.operationId === 'updateAlert'
        ? ex.probe.expect?.isolated === true && asObject(data(ex.response?.json)) !== undefined
        : Array.isArray(ex.probe.expect?.others) && Array.isArray(data(ex.response?.json))),
    check: (ex) => alertIsolationViolations(ex, data(ex.response?.json)),
  },
  {
    id: 'alerts.enums',
    title: 'thresholdType and source are enums',
    basis: 'stated',
    sentence: '`thresholdType` outside `above`/`below`, or `source` outside `tile`/`search`, is rejected.',
    probedBy:
      'invalid updates, each with one invalid value in an otherwise must-accept body (so that its refusal is its ' +
      'own): other words, other cases (`Above`), padded (`above `), homoglyphs, empty',
    operations: ['updateAlert'],
    parts: [{ name: 'thresholdType outside above/below rejected' }, { name: 'source outside tile/search rejected' }],
    partOf: (ex) => {
      const body = requestBody(ex);
      if (ex.probe.intent !== 'reject' || !body) return undefined;
      if (body.thresholdType !== undefined && !['above', 'below'].includes(body.thresholdType as string))
        return 'thresholdType outside above/below rejected';
      return body.source !== undefined && !['tile', 'search'].includes(body.source as string)
        ? 'source outside tile/search rejected'
        : undefined;
    },
    applies: (ex) => probes(ex, 'alerts.enums') && ex.response !== undefined,
    check: intentViolations,
  },
];

/**
 * Where an alert answer changed what no write changes (`probe.expect.kept`: the alert's `id` and `createdAt` as listed
 * before the updates): the id as a uuid or 24-hex id, case aside; `createdAt` as the same instant in any offset.
 */
function keptViolations(ex: Exchange, answered: unknown, path: string): Violation[] {
  const kept = asObject(ex.probe.expect?.kept) ?? {};
  const alert = asObject(answered) ?? {};
  return Object.entries(kept).flatMap(([field, before]): Violation[] =>
    (field === 'id' ? sameId(alert[field], before) : sameStoredValue(before, alert[field], { format: 'date-time' }))
      ? []
      : [
          {
            path: `${path}/${field}`,
            expected: `${String(before)}, as listed before the updates`,
            actual: alert[field],
          },
        ],
  );
}
