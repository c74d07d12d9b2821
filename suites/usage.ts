import { usagePeriod, usagePeriodTooLong, usageQueryMissingParam } from '../generators/index.ts';
import { isSuccess, type Exchange } from '../transport/exchange.ts';
import { costEntries } from '../rules/usage.ts';
import { accessGroups, type AccessTarget } from './access-groups.ts';
import { authGroups } from './auth-group.ts';
import { credentialFormsGroup } from './credential-forms.ts';
import { CREATED_KEYS, type CreatedKey, keysCreated } from './keys.ts';
import { authorizationHeader } from '../apis/descriptor.ts';
import { neighbourhoodGroups } from './neighbourhood.ts';
import { accept, fromExample, observe, reject } from '../engine/probe.ts';
import type { JudgedExchange, ProbeGroup, SuiteContext, SuiteDefinition } from '../engine/suite-types.ts';
import type { Probe } from '../core/probe-types.ts';

const DAY = 86_400_000;
const RULE = 'usage.period-limit';
/** How many period starts `calendarStarts` gives. */
const CALENDAR_STARTS = 5;

/** A past UTC midnight that depends only on the seed, so that a replay sends the same dates. */
const anchorOf = (seed: number): Date => new Date(Date.UTC(2026, 0, 1) + (seed % 180) * DAY);
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const period = (from: number, to: number): { from_date: string; to_date: string } => ({
  from_date: iso(from),
  to_date: iso(to),
});

/**
 * Starts of periods across the calendar, each a UTC midnight whose 31 days after it have passed, within the last year
 * before the run's month: the first of a month of 28 (or 29), of 30 and of 31 days, a month's last day and a year's
 * last day. A limit written as "one calendar month" differs from 30 days only there: from a month of 31 days it
 * accepts 31, from February it refuses 30. The same in every run of one month, so that a replay sends the same dates.
 */
export function calendarStarts(now: Date): { readonly label: string; readonly from: number }[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const firsts = Array.from({ length: 12 }, (_, back) => Date.UTC(year, month - 2 - back, 1));
  const length = (first: number): number => {
    const start = new Date(first);
    return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) - DAY).getUTCDate();
  };
  const firstOf = (days: readonly number[]): number => firsts.find((first) => days.includes(length(first)))!;
  const lastDay = Date.UTC(year, month - 1, 0);
  const lastYearEnd = Date.UTC(year - 1, 11, 31);
  const yearEnd = lastYearEnd + 31 * DAY <= now.getTime() ? lastYearEnd : Date.UTC(year - 2, 11, 31);
  return [
    { label: 'the first of February', from: firstOf([28, 29]) },
    { label: 'the first of a month of 30 days', from: firstOf([30]) },
    { label: 'the first of a month of 31 days', from: firstOf([31]) },
    { label: "a month's last day", from: lastDay },
    { label: "a year's last day", from: yearEnd },
  ].map(({ label, from }) => ({ label: `${label} (${iso(from).slice(0, 10)})`, from }));
}

/** The latest day strictly between `after` and `before` that a usage response shows cost entries for. */
function lastDayWithEntries(exchange: Exchange, after: string, before: string): string | undefined {
  if (!isSuccess(exchange)) return undefined;
  const result = (exchange.response.json as { result?: Record<string, unknown> } | undefined)?.result;
  const dates = costEntries(result)
    .map((entry) => (entry as { date?: unknown } | null)?.date)
    .filter((d): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d) && d > after && d < before);
  return dates.sort().at(-1);
}

/** The target's clock as its answer's `Date` header gives it, else this machine's. */
function targetNow(exchange: Exchange): number {
  const stated = Date.parse(exchange.response?.headers.date ?? '');
  return Number.isFinite(stated) ? stated : Date.now();
}

/** A day's usage, for the credential and access probes. */
const USAGE_TARGET: AccessTarget = {
  operationId: 'getUsageCost',
  api: 'management',
  scope: 'organization',
  request: (context) => ({
    query: period(anchorOf(context.config.seed).getTime(), anchorOf(context.config.seed).getTime() + DAY),
  }),
};

/** The usage suite: the 30- and 31-day boundaries, random periods, missing parameters, credentials. */
export function usageSuite(): SuiteDefinition {
  return {
    name: 'usage',
    operations: ['getUsageCost'],
    groups: [
      thirtyDayBoundaryGroup(),
      {
        name: 'random periods',
        operations: ['getUsageCost'],
        feeds: [RULE, 'usage.to-date-inclusive#entries within the period'],
        estimate: (runs) => 2 * runs,
        async run(context) {
          const anchor = anchorOf(context.config.seed);
          const arbitrary = usagePeriod({ anchor });
          const send = (query: Record<string, string>, more: Partial<Probe>): Promise<JudgedExchange> =>
            context.send('getUsageCost', {
              query,
              probe: accept('a period of at most 30 days', { rules: [RULE], ...more }),
            });
          await Promise.all([
            context.eachExample('valid period', arbitrary, (ex) => send(ex.value, fromExample(ex)), { shrink: send }),
            context.eachExample('period too long', usagePeriodTooLong.arbitrary({ anchor }), (ex) =>
              context.send('getUsageCost', {
                query: ex.value,
                probe: reject('a period of 31 days or more', RULE, fromExample(ex)),
              }),
            ),
          ]);
        },
      },
      {
        name: 'a period ending on a day with entries',
        operations: ['getUsageCost'],
        feeds: ['usage.to-date-inclusive'],
        // A target with entries in the seed's period (as a clean one has) is sent no recent period: the plan counts
        // none.
        estimate: () => 2,
        async run(context) {
          const anchor = anchorOf(context.config.seed).getTime();
          const wide = async (from: number, label: string) => {
            const exchange = await context.send('getUsageCost', {
              query: period(from, from + 10 * DAY),
              probe: accept(label),
            });
            const day = lastDayWithEntries(exchange, iso(from).slice(0, 10), iso(from + 10 * DAY).slice(0, 10));
            return { exchange, from, day };
          };
          // The seed's period first (a replay sends the same dates); where it shows no entries (a service younger than
          // it), the last 10 whole days before the target's own today, by its Date header.
          let found = await wide(anchor, 'a period of 10 days');
          if (found.day === undefined) {
            const today = Math.floor(targetNow(found.exchange) / DAY) * DAY;
            found = await wide(today - 10 * DAY, "a period of the last 10 days before the target's today");
          }
          const { from, day } = found;
          if (day === undefined) {
            context.unable(
              "neither the seed's 10-day period nor the last 10 days showed cost entries, so no day is known to have " +
                'entries',
            );
            return;
          }
          await context.send('getUsageCost', {
            query: period(from, Date.parse(`${day}T00:00:00Z`)),
            probe: accept(`a period ending on ${day}, a day the wider period showed entries for`, {
              expect: { entriesOn: day },
            }),
          });
        },
      },
      {
        name: 'missing parameters',
        operations: ['getUsageCost'],
        feeds: ['usage.required-params'],
        estimate: (runs) => 3 + Math.min(runs, 2),
        async run(context) {
          const { from_date, to_date } = period(
            anchorOf(context.config.seed).getTime(),
            anchorOf(context.config.seed).getTime() + 5 * DAY,
          );
          await Promise.all([
            context.send('getUsageCost', {
              query: { to_date },
              probe: reject('no from_date', 'usage.required-params'),
            }),
            context.send('getUsageCost', {
              query: { from_date },
              probe: reject('no to_date', 'usage.required-params'),
            }),
            ...context
              .examples(
                'missing parameter',
                usageQueryMissingParam.arbitrary({ anchor: anchorOf(context.config.seed) }),
                2,
              )
              .map((ex) =>
                context.send('getUsageCost', {
                  query: ex.value as Record<string, string>,
                  probe: reject('a missing date parameter', 'usage.required-params', fromExample(ex)),
                }),
              ),
            context.send('getUsageCost', {
              query: { from_date: 'yesterday', to_date },
              probe: reject('a from_date that is not a date'),
            }),
          ]);
        },
      },
      ...authGroups([USAGE_TARGET]),
      credentialFormsGroup({
        ...USAGE_TARGET,
        otherKeyId: async (context) => {
          const { values, choice } = await createdKeys(context);
          return values[0]?.keyId ?? { choice };
        },
      }),
      disabledKeysGroup(),
      ...neighbourhoodGroups([{ operationId: 'getUsageCost', request: (context) => USAGE_TARGET.request(context) }]),
      ...accessGroups([USAGE_TARGET]),
    ],
  };
}

/** The disabled keys the keys suite created, once it is through; when none, the user's choice that explains it. */
const createdKeys = (context: SuiteContext): Promise<{ values: readonly CreatedKey[]; choice?: string }> =>
  context.sharedBy('keys', CREATED_KEYS) as Promise<{ values: readonly CreatedKey[]; choice?: string }>;

/** Why no disabled key of the run's is there to use. */
const NO_KEY = 'the run created no disabled key (its keys suite did not run, or no create was accepted)';

/** A read signed with each disabled key the run created, each of which must be refused (`keys.state-honoured`). */
function disabledKeysGroup(): ProbeGroup {
  return {
    name: 'reads signed with disabled keys',
    operations: ['getUsageCost'],
    estimate: (runs) => keysCreated(runs),
    async run(context) {
      const { values: keys, choice } = await createdKeys(context);
      if (keys.length === 0) {
        context.unable(choice ? `${NO_KEY}, because ${choice}` : NO_KEY, { byChoice: choice !== undefined });
        return;
      }
      const { query } = USAGE_TARGET.request(context) as { query: Record<string, string> };
      await Promise.all(
        keys.map((key) =>
          context.send('getUsageCost', {
            query,
            authorization: authorizationHeader('basic', { user: key.keyId, password: key.keySecret }),
            probe: reject('a read signed with a disabled key the run created', 'keys.state-honoured'),
          }),
        ),
      );
    },
  };
}

/**
 * Usage periods of exactly 30 days (accepted) and of 31 days (refused), from starts across the calendar; between them
 * (30 days and a part of a day) observed only: a target that counts UTC days accepts it, one that counts instants
 * refuses it.
 */
function thirtyDayBoundaryGroup(): ProbeGroup {
  return {
    name: 'the 30-day boundary',
    operations: ['getUsageCost'],
    feeds: [RULE, 'usage.to-date-inclusive#entries within the period'],
    estimate: () => 6 + 3 * CALENDAR_STARTS,
    async run(context) {
      const from = anchorOf(context.config.seed).getTime();
      await Promise.all([
        // From dates across the calendar: exactly 30 days, 30 days and a second, and 31 days, from each.
        ...calendarStarts(new Date()).flatMap(({ label, from: start }) => [
          context.send('getUsageCost', {
            query: period(start, start + 30 * DAY),
            probe: accept(`exactly 30 days from ${label}`, { rules: [RULE] }),
          }),
          // Between the two readings (instants, UTC days): observed only.
          context.send('getUsageCost', {
            query: period(start, start + 30 * DAY + 1000),
            probe: observe(`30 days and 1 second from ${label}`),
          }),
          context.send('getUsageCost', {
            query: period(start, start + 31 * DAY),
            probe: reject(`31 days from ${label}`, RULE),
          }),
        ]),
        context.send('getUsageCost', {
          query: period(from, from + 30 * DAY),
          probe: accept('exactly 30 days', { rules: [RULE] }),
        }),
        context.send('getUsageCost', {
          query: period(from, from + 31 * DAY - 1000),
          probe: observe('31 days less 1 second'),
        }),
        context.send('getUsageCost', { query: period(from, from + 31 * DAY), probe: reject('31 days', RULE) }),
        context.send('getUsageCost', {
          query: period(from, from),
          probe: accept('a zero-length period', { rules: [RULE] }),
        }),
        context.send('getUsageCost', {
          query: period(from, from + DAY - 1000),
          probe: accept('one day less a second', { rules: [RULE] }),
        }),
        context.send('getUsageCost', {
          query: { from_date: iso(from).slice(0, 10), to_date: iso(from + 30 * DAY).slice(0, 10) },
          probe: observe('a date-only period of 30 days'),
        }),
      ]);
    },
  };
}
