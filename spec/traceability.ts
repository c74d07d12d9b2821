import type { Statement, StatementKind } from './traceability-statements.ts';

/** A tolerance of RULES.md: why the harness judges nothing of a statement, or less than it could. */
export interface Tolerance {
  readonly id: string;
  /** The opening words of the tolerance in RULES.md, verbatim, so that a test finds it there. */
  readonly quote: string;
}

/**
 * How the harness answers one statement of a contract document: the rules that judge it, or the tolerance of
 * RULES.md that says why nothing is judged, or why it cannot be tested. A judged statement may also name the
 * tolerance that limits how it is judged.
 */
export type Trace =
  | { readonly rules: readonly string[]; readonly tolerance?: string; readonly note?: string }
  | { readonly tolerance: string }
  | { readonly notTestable: string };

/** One statement's entry in a traceability table: its text as the document words it, and its trace. */
export type TraceEntry = Trace & { readonly text: string };

/** A document's traceability table, keyed by statement id. */
export type TraceTable = Readonly<Record<string, TraceEntry>>;

/** A statement with its trace, as docs/traceability.json and `conformance rules ID` give it. */
export interface TracedStatement {
  readonly id: string;
  readonly document: string;
  readonly kind: StatementKind;
  readonly line: number;
  readonly text: string;
  readonly rules: readonly string[];
  readonly tolerance?: string;
  readonly notTestable?: string;
  /** What of a judged statement no rule judges, and why. */
  readonly note?: string;
}

/** What is wrong between a document's statements and its table: each list empty when they agree. */
export interface TraceabilityGaps {
  /** Statements of the document that the table has no entry for. */
  readonly unmapped: readonly Statement[];
  /** Entries of the table whose statement the document no longer has. */
  readonly stale: readonly string[];
  /** Statements whose wording changed since their entry was written: the entry needs a look. */
  readonly changed: readonly { readonly id: string; readonly was: string; readonly now: string }[];
  /** Entries that name a rule or tolerance that does not exist, or neither. */
  readonly invalid: readonly { readonly id: string; readonly problem: string }[];
}

/** The rule ids an entry names; none for a tolerance or a statement not testable. */
export function rulesOf(trace: Trace): readonly string[] {
  return 'rules' in trace ? trace.rules : [];
}

/** Compares a document's statements with its table, against the rule ids and tolerances that exist. */
export function traceabilityGaps(
  statements: readonly Statement[],
  table: TraceTable,
  ruleIds: readonly string[],
  tolerances: readonly Tolerance[],
): TraceabilityGaps {
  const known = new Set(ruleIds);
  const toleranceIds = new Set(tolerances.map((t) => t.id));
  const ids = new Set(statements.map((s) => s.id));
  const invalid: { id: string; problem: string }[] = [];
  for (const [id, entry] of Object.entries(table)) {
    for (const rule of rulesOf(entry))
      if (!known.has(rule)) invalid.push({ id, problem: `names the unknown rule ${rule}` });
    if ('rules' in entry && entry.rules.length === 0) invalid.push({ id, problem: 'names no rule' });
    if ('tolerance' in entry && entry.tolerance !== undefined && !toleranceIds.has(entry.tolerance))
      invalid.push({ id, problem: `names the unknown tolerance ${entry.tolerance}` });
    if ('notTestable' in entry && entry.notTestable.trim() === '')
      invalid.push({ id, problem: 'says it is not testable without saying why' });
  }
  return {
    unmapped: statements.filter((s) => table[s.id] === undefined),
    stale: Object.keys(table).filter((id) => !ids.has(id)),
    changed: statements.flatMap((s) => {
      const was = table[s.id]?.text;
      return was !== undefined && was !== s.text ? [{ id: s.id, was, now: s.text }] : [];
    }),
    invalid,
  };
}

/** Every statement with its trace (statements the table lacks are left out: `traceabilityGaps` names them). */
export function traceStatements(statements: readonly Statement[], table: TraceTable): TracedStatement[] {
  return statements.flatMap((s) => {
    const entry = table[s.id];
    if (!entry) return [];
    return [
      {
        id: s.id,
        document: s.document,
        kind: s.kind,
        line: s.line,
        text: s.text,
        rules: rulesOf(entry),
        ...('tolerance' in entry && entry.tolerance !== undefined ? { tolerance: entry.tolerance } : {}),
        ...('notTestable' in entry ? { notTestable: entry.notTestable } : {}),
        ...('note' in entry && entry.note !== undefined ? { note: entry.note } : {}),
      },
    ];
  });
}

/** The statements of a table that a rule judges: id and text, in table order. */
export function statementsJudgedBy(
  ruleId: string,
  tables: readonly TraceTable[],
): { readonly id: string; readonly text: string }[] {
  return tables.flatMap((table) =>
    Object.entries(table).flatMap(([id, entry]) => (rulesOf(entry).includes(ruleId) ? [{ id, text: entry.text }] : [])),
  );
}
