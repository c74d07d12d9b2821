import type { RecordedRequest, RecordedResponse, TransportFailure } from '../transport/exchange.ts';
import type { MinimalExample } from './minimal-example.ts';
import type { SequenceExample } from './sequence-example.ts';
import { jsonText } from '../core/json-text.ts';

/** How to reproduce a finding from the report alone. */
export interface Reproduction {
  /**
   * A curl command that sends the same request: the run's credentials as environment variables, values the harness
   * generated as sent, other secrets `[redacted]`.
   */
  readonly curl: string;
  readonly seed: number;
  /** The generated example behind the request: its property and its index in that property's run. */
  readonly example?: { readonly property: string; readonly seed: number; readonly index: number };
  /** The harness command that replays the run for this rule. */
  readonly command: string;
}

/** One violation of one rule by one exchange, with redacted evidence. */
export interface Finding {
  readonly rule: string;
  readonly operation: string;
  readonly probe: string;
  readonly path: string;
  readonly expected: string;
  readonly actual?: unknown;
  readonly evidence: {
    readonly request: RecordedRequest;
    readonly response?: RecordedResponse;
    readonly failure?: TransportFailure;
  };
  readonly reproduce: Reproduction;
  /** For a failure found on a generated request: what shrinking it against the target found. */
  readonly minimal?: MinimalExample;
  /** For a failure found on a step of a model-based sequence: the shortest sequence found that shows it. */
  readonly sequence?: SequenceExample;
}

/** Outcome of one rule on one operation. */
export type Outcome = 'passed' | 'failed' | 'skipped';

/** The verdict of one rule on one operation: what `findings.json` lists under `results`. */
export interface RuleResult {
  readonly rule: string;
  /** The operation's `METHOD /path` key. */
  readonly operation: string;
  /** The operation's operationId in the spec (absent in reports of older versions). */
  readonly operationId?: string;
  readonly outcome: Outcome;
  readonly message: string;
  /**
   * For a skipped result: `by-choice` (rule selection, `--allow`, an API left out) or `not-judged` (budget, a missing
   * resource, no evidence).
   */
  readonly skipKind?: 'by-choice' | 'not-judged';
  /** For a skipped result: the distinct reasons behind it, without the parts (for summaries that group by reason). */
  readonly skipReasons?: readonly string[];
  /** Exchanges the rule judged. */
  readonly checks: number;
  /** Violations seen; `findings` keeps the first few of them. */
  readonly violations: number;
  readonly findings: readonly Finding[];
}

/** Renders a finding as one line: the single place where a finding becomes prose. */
export function renderFinding(finding: Finding): string {
  const at = finding.path === '' ? 'the response' : finding.path;
  const actual = finding.actual === undefined ? 'it is absent' : `got ${preview(finding.actual)}`;
  return `${at}: expected ${finding.expected}, ${actual} (probe: ${finding.probe})`;
}

/** A value as a report quotes it: JSON, cut to 200 characters. */
export function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (jsonText(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
