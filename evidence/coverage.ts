import type { Outcome, RuleResult } from './finding.ts';
import type { FieldTally, OperationCoverage, SequenceTally } from './ledger.ts';
import { TEXT_KIND_NAMES } from './text-kinds.ts';
import type { NeighbourhoodTally } from './ledger.ts';
import { EVERY_PART } from './ledger.ts';

/**
 * One enum field of a request: its documented values, those sent by must-accept and by observe probes, and those never
 * tried.
 */
export interface EnumCoverage {
  readonly field: string;
  readonly values: readonly string[];
  readonly accept: readonly string[];
  readonly observe: readonly string[];
  readonly neverTried: readonly string[];
}

/** One free-text field of a request: the kinds of text sent by must-accept and by observe probes, and those never. */
export interface TextFieldCoverage {
  readonly field: string;
  readonly accept: readonly string[];
  readonly observe: readonly string[];
  readonly neverSent: readonly string[];
}

/** The free-text fields of a request: those some kind of text reached, and those none did (plain text only). */
export interface TextCoverage {
  readonly reached: readonly TextFieldCoverage[];
  readonly untouched: readonly string[];
}

/**
 * What a run exercised of one operation, credited by judgement: each rule's verdict and the exchanges each of its parts
 * judged, the statuses seen, the documented request fields and enum values sent (by must-accept and by observe probes)
 * and the documented response fields seen; what was never sent, tried or seen is listed by name.
 */
export interface OperationCoverageRow {
  readonly operation: string;
  readonly operationId?: string;
  readonly requests: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly rules: readonly {
    readonly rule: string;
    readonly outcome: Outcome;
    readonly parts: Readonly<Record<string, number>>;
  }[];
  readonly requestFields: {
    readonly documented: number;
    readonly accept: number;
    readonly observe: number;
    readonly neverSent: readonly string[];
  };
  readonly enumValues: readonly EnumCoverage[];
  /** The free-text request fields: the kinds of text must-accept and observe probes sent each, and those never sent. */
  readonly textKinds: TextCoverage;
  readonly responseFields: {
    readonly documented: number;
    readonly seen: number;
    readonly neverSeen: readonly string[];
  };
  /** What the model-based sequences covered of the operation; null when no sequence sends to it. */
  readonly sequences: SequenceCoverage | null;
  /**
   * The parts of a request and kinds of value of the contract's neighbourhood (`errors.client-not-server`) sent to it,
   * where, and those not sent, with why.
   */
  readonly neighbourhood: NeighbourhoodCoverage;
}

/** What the neighbourhood's probes reached of one operation, and what not, with why. */
export interface NeighbourhoodCoverage {
  /** Each part or kind sent: where (fields, parameters, methods; empty for the request as a whole), and requests. */
  readonly sent: readonly { readonly part: string; readonly where: readonly string[]; readonly requests: number }[];
  /** Each part or kind (or places of one) not sent, and why. */
  readonly notSent: readonly { readonly part: string; readonly where?: readonly string[]; readonly reason: string }[];
}

/**
 * The steps model-based sequences sent to one operation and it answered (shrink candidates not counted), by the kind of
 * step that came right before each: which kinds of command followed which.
 */
export interface SequenceCoverage {
  readonly steps: number;
  /** Most frequent first: `create` then `update`, 12 times; `start` is the beginning of a sequence. */
  readonly transitions: readonly { readonly from: string; readonly to: string; readonly count: number }[];
  /** Why no sequence that sends to the operation ran (`--allow read` leaves out write-class ones, say). */
  readonly notSent?: string;
}

/**
 * Adds one suite's coverage of its operations into the run's (an operation's counts summed when two suites send to it).
 */
export function mergeCoverage(
  into: Record<string, OperationCoverage>,
  from: Readonly<Record<string, OperationCoverage>>,
): void {
  for (const [operation, coverage] of Object.entries(from)) {
    const entry = (into[operation] ??= { requests: 0, statuses: {} });
    entry.requests += coverage.requests;
    sum(entry.statuses, coverage.statuses);
    for (const [rule, parts] of Object.entries(coverage.judged ?? {})) sum(((entry.judged ??= {})[rule] ??= {}), parts);
    if (coverage.fields) {
      const fields = (entry.fields ??= {
        documented: coverage.fields.documented,
        sent: {},
        enums: {},
        texts: {},
        seen: {},
      });
      for (const [intent, counts] of Object.entries(coverage.fields.sent)) sum((fields.sent[intent] ??= {}), counts);
      for (const [intent, byField] of Object.entries(coverage.fields.enums)) {
        for (const [field, counts] of Object.entries(byField))
          sum(((fields.enums[intent] ??= {})[field] ??= {}), counts);
      }
      for (const [intent, byField] of Object.entries(coverage.fields.texts)) {
        for (const [field, counts] of Object.entries(byField))
          sum(((fields.texts[intent] ??= {})[field] ??= {}), counts);
      }
      sum(fields.seen, coverage.fields.seen);
    }
    if (coverage.neighbourhood) {
      const neighbourhood = (entry.neighbourhood ??= { sent: {}, notSent: {} });
      neighbourhood.places ??= coverage.neighbourhood.places;
      for (const [part, counts] of Object.entries(coverage.neighbourhood.sent))
        sum((neighbourhood.sent[part] ??= {}), counts);
      for (const [part, reason] of Object.entries(coverage.neighbourhood.notSent))
        neighbourhood.notSent[part] ??= reason;
    }
    if (coverage.sequences) {
      const sequences = (entry.sequences ??= { transitions: {} });
      for (const [from, counts] of Object.entries(coverage.sequences.transitions))
        sum((sequences.transitions[from] ??= {}), counts);
      if (coverage.sequences.notSent !== undefined) sequences.notSent ??= coverage.sequences.notSent;
    }
  }
}

function sum(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

/** The coverage table of a run: one row per operation that has a verdict, in the order of the results. */
export function coverageRows(
  coverage: Readonly<Record<string, OperationCoverage>>,
  results: readonly RuleResult[],
): OperationCoverageRow[] {
  const operations = [...new Map(results.map((r) => [r.operation, r.operationId])).entries()];
  return operations.map(([operation, operationId]) => {
    const entry = coverage[operation];
    const fields: FieldTally | undefined = entry?.fields;
    const sentBy = (intent: string): Set<string> => new Set(Object.keys(fields?.sent[intent] ?? {}));
    const accept = sentBy('accept');
    const observe = sentBy('observe');
    const documented = fields?.documented;
    const triedBy = (intent: string, field: string): string[] => Object.keys(fields?.enums[intent]?.[field] ?? {});
    const seen = new Set(Object.keys(fields?.seen ?? {}));
    return {
      operation,
      ...(operationId ? { operationId } : {}),
      requests: entry?.requests ?? 0,
      statuses: entry?.statuses ?? {},
      rules: results
        .filter((r) => r.operation === operation)
        .map((r) => ({ rule: r.rule, outcome: r.outcome, parts: entry?.judged?.[r.rule] ?? {} })),
      requestFields: {
        documented: documented?.request.length ?? 0,
        accept: accept.size,
        observe: observe.size,
        neverSent: (documented?.request ?? []).filter((f) => !accept.has(f) && !observe.has(f)),
      },
      enumValues: Object.entries(documented?.enums ?? {}).map(([field, values]) => {
        const a = triedBy('accept', field);
        const o = triedBy('observe', field);
        return {
          field,
          values,
          accept: a,
          observe: o,
          neverTried: values.filter((v) => !a.includes(v) && !o.includes(v)),
        };
      }),
      textKinds: textCoverage(documented?.texts ?? [], fields),
      responseFields: {
        documented: documented?.response.length ?? 0,
        seen: (documented?.response ?? []).filter((f) => seen.has(f)).length,
        neverSeen: (documented?.response ?? []).filter((f) => !seen.has(f)),
      },
      sequences: entry?.sequences ? sequenceCoverage(entry.sequences) : null,
      neighbourhood: neighbourhoodCoverage(entry?.neighbourhood),
    };
  });
}

function textCoverage(texts: readonly string[], fields: FieldTally | undefined): TextCoverage {
  const rows = texts.map((field): TextFieldCoverage => {
    const kinds = (intent: string): string[] =>
      TEXT_KIND_NAMES.filter((kind) => (fields?.texts[intent]?.[field]?.[kind] ?? 0) > 0);
    const accept = kinds('accept');
    const observe = kinds('observe');
    const neverSent = TEXT_KIND_NAMES.filter((kind) => !accept.includes(kind) && !observe.includes(kind));
    return { field, accept, observe, neverSent };
  });
  return {
    reached: rows.filter((row) => row.accept.length + row.observe.length > 0),
    untouched: rows.filter((row) => row.accept.length + row.observe.length === 0).map((row) => row.field),
  };
}

function sequenceCoverage(tally: SequenceTally): SequenceCoverage {
  const transitions = Object.entries(tally.transitions)
    .flatMap(([from, counts]) => Object.entries(counts).map(([to, count]) => ({ from, to, count })))
    .sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const steps = transitions.reduce((n, t) => n + t.count, 0);
  return { steps, transitions, ...(steps === 0 && tally.notSent !== undefined ? { notSent: tally.notSent } : {}) };
}

/**
 * Why places of a part that was sent were not: each run sends a part once and a kind of value to a bounded sample of
 * fields, drawn from its seed, and other seeds reach the others.
 */
const DRAWN = 'not drawn on this seed';
/** Why nothing of an operation's neighbourhood was sent, when no reason was given. */
const NONE = 'no probe of the neighbourhood was sent to it';

function neighbourhoodCoverage(tally: NeighbourhoodTally | undefined): NeighbourhoodCoverage {
  const sent: { part: string; where: string[]; requests: number }[] = [];
  const notSent: { part: string; where?: string[]; reason: string }[] = [];
  const reasons = tally?.notSent ?? {};
  for (const { part, where } of tally?.places ?? []) {
    const byWhere = tally?.sent[part] ?? {};
    const reached = Object.keys(byWhere);
    if (reached.length > 0)
      sent.push({
        part,
        where: reached.filter((at) => at !== ''),
        requests: Object.values(byWhere).reduce((n, count) => n + count, 0),
      });
    const partReason = reasons[part] ?? (reached.length > 0 ? undefined : reasons[EVERY_PART]);
    if (where.length === 0) {
      if (reached.length === 0) notSent.push({ part, reason: partReason ?? NONE });
      continue;
    }
    const grouped = new Map<string, string[]>();
    for (const at of where.filter((one) => !(one in byWhere))) {
      const reason = reasons[`${part}#${at}`] ?? partReason ?? (reached.length > 0 ? DRAWN : NONE);
      grouped.set(reason, [...(grouped.get(reason) ?? []), at]);
    }
    // The places a seed did not draw are the part's others, listed by `neighbourhoodOf`: a count says how many.
    for (const [reason, places] of grouped)
      notSent.push(
        reason === DRAWN
          ? { part, reason: `${reason} (${places.length} of ${where.length})` }
          : { part, where: places, reason },
      );
  }
  return { sent, notSent };
}
