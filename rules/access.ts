import { subsetViolations } from './subset.ts';
import { isRefusal, isSuccess, type Exchange } from '../transport/exchange.ts';
import { withPathParameter, type Rule, type Violation } from '../rule-model/rule.ts';
import { asObject, payload, payloadPath, probes, sameId } from './body.ts';
import { jsonText } from '../core/json-text.ts';

/** The path parameter that names the organization an operation acts in (every operation of the management API). */
const ORGANIZATION = 'organizationId';

/** A probe of the rule answered: a rejection probe whatever came back, else a 2xx (the reading it checks). */
const judgesAnswer = (ex: Exchange, rule: string): boolean =>
  probes(ex, rule) && ex.response !== undefined && (ex.probe.intent === 'reject' || isSuccess(ex));

/** The parts of `access.path-scoped`: the path names another organization, another service, and the read after. */
export const PATH_SCOPE_PARTS = Object.freeze({
  organization: 'another organization',
  service: 'another service',
  unchanged: 'the pipe unchanged after a refused update',
});

/** The parts of `access.other-tenant`: a request refused, and the other team's list. */
export const OTHER_TENANT_PARTS = Object.freeze({
  refused: "another tenant's request refused",
  list: "another team's list holds none of the run's alerts",
});

/**
 * What a probe of `access.read-only-fields` expects (`probe.expect.readOnly`): the fields only the server writes that
 * it sent, the target's own values where known (the path's ids, the listed alert's), which a finding names, and for a
 * list, which alert.
 */
export interface ReadOnlyExpectation {
  readonly sent: Readonly<Record<string, unknown>>;
  readonly kept: Readonly<Record<string, unknown>>;
  readonly listed?: string;
}

/** A refused request's violation: anything but a 4xx (a 2xx took it; a 5xx is a fault, not a refusal). */
function refusal(exchange: Exchange): Violation[] {
  return isRefusal(exchange)
    ? []
    : [{ path: '', expected: `a rejection (4xx) of ${exchange.probe.label}`, actual: exchange.response?.status ?? 0 }];
}

/** The entries of a list answer (`{ data: [...] }`). */
const listed = (exchange: Exchange): Record<string, unknown>[] => {
  const data = asObject(exchange.response?.json)?.data;
  return Array.isArray(data) ? (data.flatMap((entry) => asObject(entry) ?? []) as Record<string, unknown>[]) : [];
};

/** The value at a field's path in an answer (`key/id` is the `id` of its `key`). */
const fieldAt = (shown: Record<string, unknown>, field: string): unknown =>
  field.split('/').reduce<unknown>((value, name) => asObject(value)?.[name], shown);

/**
 * The fields of `shown` (paths, as `key/id`) that carry the value sent (a field only the server writes); the target's
 * own value, where known, names what was expected. A wrong value of the target's own is other rules' to judge
 * (`pipes.service-id`).
 */
function readOnlyViolations(shown: Record<string, unknown>, expected: ReadOnlyExpectation, at: string): Violation[] {
  return Object.entries(expected.sent).flatMap(([field, sent]): Violation[] => {
    const kept = expected.kept[field];
    const wanted =
      kept === undefined ? `the target's ${field}, not the one sent` : `the target's ${field} ${jsonText(kept)}`;
    const value = fieldAt(shown, field);
    return value !== undefined && subsetViolations(sent, value, '').length === 0
      ? [{ path: `${at}/${field}`, expected: wanted, actual: value }]
      : [];
  });
}

/** Rules of access: what a path, another tenant's credentials and server-written fields may not reach. */
export const accessRules: Rule[] = [
  {
    id: 'access.path-scoped',
    title: "The path's organization and service scope every operation",
    basis: 'inferred',
    sentence:
      'The path scopes every operation: a request whose path names an organization or service other than the ' +
      "run's, or the run's pipe or backup under another service, is rejected (any 4xx) and changes nothing (the " +
      'pipe reads as before).',
    probedBy:
      'every operation with another `organizationId` (a fresh uuid); pipe create, update and settings read, and ' +
      'the backup read, under another `serviceId`; after each refused pipe update, a settings read of that pipe. ' +
      'The state operation under another organization is `disruptive`',
    operations: withPathParameter(ORGANIZATION),
    parts: [
      { name: PATH_SCOPE_PARTS.organization },
      { name: PATH_SCOPE_PARTS.service, operations: ['createPipe', 'updatePipe', 'getPipeSettings', 'getBackup'] },
      { name: PATH_SCOPE_PARTS.unchanged, operations: ['getPipeSettings'] },
    ],
    partOf: (ex) => ex.probe.part,
    applies: (ex) => judgesAnswer(ex, 'access.path-scoped'),
    check: (ex) => {
      if (ex.probe.intent === 'reject') return refusal(ex);
      const before = ex.probe.expect?.unchanged;
      const after = payload(ex);
      // The same settings as read before: every key as it was, and no key more.
      return subsetViolations(before, after, '').length === 0 &&
        Object.keys(after ?? {}).every((key) => asObject(before)?.[key] !== undefined)
        ? []
        : [
            {
              path: payloadPath(ex),
              expected: `the settings read before the refused update: ${jsonText(before)}`,
              actual: after,
            },
          ];
    },
  },
  {
    id: 'access.other-tenant',
    title: "Another tenant's credentials reach none of the run's resources",
    basis: 'inferred',
    sentence:
      'Credentials of another organization (management) or another team (alerts) neither read nor change the ' +
      "run's resources: with them, every operation on the run's organization, service, pipes and backup is " +
      "rejected, an update of the run's alert is rejected, and their alert list holds none of the run's alerts.",
    probedBy:
      "only with a second identity configured (another organization's key, another team's token); without " +
      'one, not judged, with that reason',
    operations: withPathParameter(ORGANIZATION, ['updateAlert', 'listAlerts']),
    severity: 'credentials',
    parts: [
      { name: OTHER_TENANT_PARTS.refused, operations: withPathParameter(ORGANIZATION, ['updateAlert']) },
      { name: OTHER_TENANT_PARTS.list, operations: ['listAlerts'] },
    ],
    partOf: (ex) => ex.probe.part,
    applies: (ex) => judgesAnswer(ex, 'access.other-tenant'),
    check: (ex) => {
      if (ex.probe.intent === 'reject') return refusal(ex);
      const runs = (ex.probe.expect?.runAlerts ?? []) as readonly string[];
      return listed(ex).flatMap((alert, index) =>
        runs.some((id) => sameId(id, alert.id))
          ? [{ path: `/data/${index}/id`, expected: "none of the run's alerts", actual: alert.id }]
          : [],
      );
    },
  },
  {
    id: 'access.read-only-fields',
    title: 'Fields only the server writes are not written by a request',
    basis: 'inferred',
    sentence:
      "A write that also sends fields the documents show only in answers (a pipe's `id`, `serviceId`, `state`, " +
      "`createdAt`, `updatedAt`; an alert's `id`, `team`, `state`, `createdAt`, `updatedAt`) is rejected, or " +
      'changes none of them: the answer and every later read show the values the target set.',
    probedBy:
      "observe creates and updates with such fields added (another pipe's id, another service's id, another " +
      'team); if accepted, the answer and the next read. A key create likewise: `keyId`, `keySecret` and the ' +
      "`key`'s `id`, `keySuffix`, `createdAt` and `usedAt` sent in the body never become the key's (a client that " +
      "chooses its own key's credentials or id is OWASP API3's mass assignment)",
    operations: ['createPipe', 'updatePipe', 'updateAlert', 'listAlerts', 'createKey'],
    applies: (ex) => probes(ex, 'access.read-only-fields') && ex.response !== undefined,
    check: (ex) => {
      const expected = ex.probe.expect?.readOnly as ReadOnlyExpectation | undefined;
      if (!expected || !isSuccess(ex)) return [];
      if (expected.listed === undefined) {
        const shown = payload(ex);
        return shown ? readOnlyViolations(shown, expected, payloadPath(ex)) : [];
      }
      const entries = listed(ex);
      const index = entries.findIndex((alert) => sameId(alert.id, expected.listed));
      if (index < 0)
        return [{ path: '/data', expected: `alert ${expected.listed} listed under its own id`, actual: 'absent' }];
      return readOnlyViolations(entries[index]!, expected, `/data/${index}`);
    },
  },
];
