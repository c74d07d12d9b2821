import { DEFAULTS } from '../settings/defaults.ts';
import type { Finding } from './finding.ts';

/** What one rule saw on one operation. */
export interface Tally {
  checks: number;
  /** Exchanges that were evidence, by the part of the rule they were evidence for. */
  parts: Record<string, number>;
  violations: number;
  findings: Finding[];
}

/** What one operation saw: requests sent and the status codes (or failure codes) that came back. */
export interface OperationCoverage {
  requests: number;
  statuses: Record<string, number>;
  /**
   * Per rule, the exchanges judged by each part of it (`field-coverage.ts` reads them into the coverage table).
   */
  judged?: Record<string, Record<string, number>>;
  /** What the requests sent and the answers showed of the documented fields (`field-coverage.ts`). */
  fields?: FieldTally;
  /** For an operation that model-based sequences send to: the steps they sent it, or why none ran. */
  sequences?: SequenceTally;
  /** The parts of a request and kinds of value of the contract's neighbourhood sent to it, and why others were not. */
  neighbourhood?: NeighbourhoodTally;
}

/** The neighbourhood's probes an operation answered, by part (or kind of value) and where; why some were not sent. */
export interface NeighbourhoodTally {
  /** Every part and kind the operation has by its spec, and where each can go (`neighbourhood.ts`). */
  places?: readonly { readonly part: string; readonly where: readonly string[] }[];
  /** Part or kind → where (a field, a parameter, a method; `` for the request as a whole) → requests answered. */
  readonly sent: Record<string, Record<string, number>>;
  /** Part or kind (or `part#where`, or `*` for all) → why it was not sent (the first reason given). */
  readonly notSent: Record<string, string>;
}

/** The steps of model-based sequences one operation answered, by the kind of step before each and its own kind. */
export interface SequenceTally {
  /** Kind of the step before (`start` for a sequence's first step) → kind of this step → steps. */
  readonly transitions: Record<string, Record<string, number>>;
  /** Why no sequence that sends to the operation ran (its group was skipped, by choice or not). */
  notSent?: string;
}

/**
 * Per operation: its documented fields, and how many requests of each intent sent each one and each enum value, and 2xx
 * answers showed each.
 */
export interface FieldTally {
  readonly documented: {
    readonly request: readonly string[];
    readonly enums: Readonly<Record<string, readonly string[]>>;
    /** The free-text request fields. */
    readonly texts: readonly string[];
    readonly response: readonly string[];
  };
  /** By probe intent (`accept`, `observe`, `reject`): documented request field → requests that carried it. */
  readonly sent: Record<string, Record<string, number>>;
  /** By probe intent: enum field → value → requests that sent it. */
  readonly enums: Record<string, Record<string, Record<string, number>>>;
  /** By probe intent: free-text field → kind of text (`core/text-kinds.ts`) → requests that sent one. */
  readonly texts: Record<string, Record<string, Record<string, number>>>;
  /** Documented response field → 2xx answers that carried it. */
  readonly seen: Record<string, number>;
}

/** Collects, per operation and rule, what the run judged; plain data, to travel on test metadata. */
export interface Ledger {
  readonly tallies: Record<string, Record<string, Tally>>;
  readonly coverage: Record<string, OperationCoverage>;
}

/** Creates an empty ledger. */
export function createLedger(): Ledger {
  return { tallies: {}, coverage: {} };
}

/** A finding the ledger kept, by reference: what made it amends it in place (a minimal example, a sequence). */
export interface KeptFinding {
  readonly rule: string;
  /** The finding as kept now. */
  current(): Finding;
  /** Replaces the kept finding with what `change` makes of it. */
  amend(change: (finding: Finding) => Finding): void;
}

/**
 * Adds one judged rule on one exchange to the ledger (with the part it was evidence for), keeping the first few
 * findings; returns references to those it kept.
 */
export function tally(
  ledger: Ledger,
  operation: string,
  rule: string,
  part: string | undefined,
  findings: readonly Finding[],
): KeptFinding[] {
  const byRule = (ledger.tallies[operation] ??= {});
  const entry = (byRule[rule] ??= { checks: 0, parts: {}, violations: 0, findings: [] });
  entry.checks += 1;
  if (part !== undefined) entry.parts[part] = (entry.parts[part] ?? 0) + 1;
  const coverage = (ledger.coverage[operation] ??= { requests: 0, statuses: {} });
  const judged = ((coverage.judged ??= {})[rule] ??= {});
  judged[part ?? 'whole rule'] = (judged[part ?? 'whole rule'] ?? 0) + 1;
  entry.violations += findings.length;
  const kept: KeptFinding[] = [];
  for (const finding of findings) {
    if (entry.findings.length >= DEFAULTS.findingsPerResult) break;
    kept.push(keptAt(entry.findings, entry.findings.push(finding) - 1, rule));
  }
  return kept;
}

/** The kept finding at `at` of a tally's findings, which are only ever added to and replaced in place. */
function keptAt(findings: Finding[], at: number, rule: string): KeptFinding {
  return {
    rule,
    current: () => findings[at]!,
    amend(change) {
      findings[at] = change(findings[at]!);
    },
  };
}

/**
 * The first finding of `rule` on `operation` that `where` accepts, for a change whose own finding the ledger did not
 * keep (it keeps `DEFAULTS.findingsPerResult` of each): undefined when none is kept.
 */
export function firstKept(
  ledger: Ledger,
  operation: string,
  rule: string,
  where: (finding: Finding) => boolean,
): KeptFinding | undefined {
  const findings = ledger.tallies[operation]?.[rule]?.findings;
  const at = findings?.findIndex(where) ?? -1;
  return findings && at >= 0 ? keptAt(findings, at, rule) : undefined;
}

/** Counts one request of an operation under the status it got, or its failure code. */
export function cover(ledger: Ledger, operation: string, outcome: string): void {
  const entry = (ledger.coverage[operation] ??= { requests: 0, statuses: {} });
  entry.requests += 1;
  entry.statuses[outcome] = (entry.statuses[outcome] ?? 0) + 1;
}

/**
 * Counts one answered step of a model-based sequence: the kind of step before it and its own (`Probe.transition`).
 */
export function coverTransition(
  ledger: Ledger,
  operation: string,
  transition: { readonly from: string; readonly to: string },
): void {
  const { transitions } = sequencesOf(ledger, operation);
  const after = (transitions[transition.from] ??= {});
  after[transition.to] = (after[transition.to] ?? 0) + 1;
}

/**
 * Notes that model-based sequences send to an operation: with `notSent`, why none will (a skipped group); without, that
 * one runs, so that an operation it never reached shows no step rather than no sequence at all.
 */
export function expectSequences(ledger: Ledger, operation: string, notSent?: string): void {
  const tally = sequencesOf(ledger, operation);
  if (notSent !== undefined) tally.notSent ??= notSent;
}

function sequencesOf(ledger: Ledger, operation: string): SequenceTally {
  const coverage = (ledger.coverage[operation] ??= { requests: 0, statuses: {} });
  return (coverage.sequences ??= { transitions: {} });
}

/** The part under which a reason stands for every part of an operation's neighbourhood (its group did not run). */
export const EVERY_PART = '*';

/** The ledger's tally of the neighbourhood of an operation. */
export function neighbourhoodTally(ledger: Ledger, operation: string): NeighbourhoodTally {
  const coverage = (ledger.coverage[operation] ??= { requests: 0, statuses: {} });
  return (coverage.neighbourhood ??= { sent: {}, notSent: {} });
}

/** Counts one answered probe of the contract's neighbourhood under its part and where (`Probe.neighbourhood`). */
export function coverNeighbourhood(
  ledger: Ledger,
  operation: string,
  probe: { readonly part: string; readonly where?: string },
): void {
  const byWhere = (neighbourhoodTally(ledger, operation).sent[probe.part] ??= {});
  const where = probe.where ?? '';
  byWhere[where] = (byWhere[where] ?? 0) + 1;
}

/** Notes why a part of the neighbourhood was not sent to an operation (the first reason given stays). */
export function neighbourhoodNotSent(ledger: Ledger, operation: string, part: string, reason: string): void {
  neighbourhoodTally(ledger, operation).notSent[part] ??= reason;
}
