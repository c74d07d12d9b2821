import type { OperationCoverageRow } from '../core/coverage.ts';
import { operationName } from './operation-name.ts';

/** Names listed in a cell before the rest is counted, so that the summary stays a summary. */
const MAX_NAMES = 12;

/** The coverage table of summary.md: per operation, what was judged, sent and seen, and by name what never was. */
export function coverageMarkdown(rows: readonly OperationCoverageRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '### Coverage',
    '',
    'Credited by judgement: rules judged on the operation, documented request fields sent by must-accept / ' +
      'observe probes, documented enum values sent, documented response fields seen in 2xx answers. Sequence ' +
      'transitions: not recorded yet.',
    '',
    '| Operation | Requests | Statuses | Rules judged | Request fields | Enum values | Response fields | ' +
      'Never sent, tried or seen |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => {
      const statuses = Object.entries(row.statuses)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      const judged = row.rules.filter((r) => Object.keys(r.parts).length > 0).length;
      const values = row.enumValues.reduce((n, e) => n + e.values.length, 0);
      const tried = row.enumValues.reduce((n, e) => n + e.values.length - e.neverTried.length, 0);
      const never = [
        ...row.requestFields.neverSent.map((f) => `sent \`${f}\``),
        ...row.enumValues.flatMap((e) => e.neverTried.map((v) => `tried \`${e.field}=${v}\``)),
        ...row.responseFields.neverSeen.map((f) => `seen \`${f}\``),
      ];
      const shown =
        never.length > MAX_NAMES
          ? [...never.slice(0, MAX_NAMES), `${never.length - MAX_NAMES} more in findings.json`]
          : never;
      return (
        `| \`${operationName(row).replace(/\|/g, '¦')}\` | ${row.requests} | ${statuses} | ${judged} of ` +
        `${row.rules.length} | ${row.requestFields.accept} / ${row.requestFields.observe} of ` +
        `${row.requestFields.documented} | ${values === 0 ? '–' : `${tried} of ${values}`} | ` +
        `${row.responseFields.seen} of ${row.responseFields.documented} | ${shown.join(', ') || 'none'} |`
      );
    }),
    '',
  ];
}
