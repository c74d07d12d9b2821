import type { OperationCoverageRow, SequenceCoverage } from '../evidence/coverage.ts';
import { operationName } from './operation-name.ts';

/** Names listed in a cell before the rest is counted, so that the summary stays a summary. */
const MAX_NAMES = 12;

/** Transitions listed in a cell, most frequent first, before the rest is counted. */
const MAX_TRANSITIONS = 4;

/** The coverage table of summary.md: per operation, what was judged, sent and seen, and by name what never was. */
export function coverageMarkdown(rows: readonly OperationCoverageRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '### Coverage',
    '',
    'Credited by judgement: rules judged on the operation, documented request fields sent by must-accept / ' +
      'observe probes, documented enum values sent, documented response fields seen in 2xx answers, and the ' +
      'steps of model-based sequences it answered by the kind of step before each (`start`: a first step).',
    '',
    '| Operation | Requests | Statuses | Rules judged | Request fields | Enum values | Response fields | ' +
      'Sequence steps | Never sent, tried or seen |',
    '|---|---|---|---|---|---|---|---|---|',
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
        `${row.responseFields.seen} of ${row.responseFields.documented} | ${sequenceCell(row.sequences)} | ` +
        `${shown.join(', ') || 'none'} |`
      );
    }),
    '',
  ];
}

/** The steps sequences sent to an operation, by transition; why none ran; or `–` when none sends to it. */
function sequenceCell(sequences: SequenceCoverage | null): string {
  if (!sequences) return '–';
  if (sequences.notSent !== undefined) return `none: ${sequences.notSent.replace(/\|/g, '¦')}`;
  const shown = sequences.transitions.slice(0, MAX_TRANSITIONS).map((t) => `${t.from}→${t.to} ×${t.count}`);
  const more = sequences.transitions.length - shown.length;
  const listed = [...shown, ...(more > 0 ? [`${more} more in findings.json`] : [])];
  return `${sequences.steps}: ${listed.join(', ') || 'none answered'}`;
}
