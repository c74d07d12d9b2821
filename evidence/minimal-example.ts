import { type FieldDifference, fieldText, type SharedValue } from './difference.ts';
import { jsonText } from '../core/json-text.ts';

/** A request of a shrink: its redacted body and what came back (an HTTP status, or the transport failure's code). */
export interface ShrinkRequest {
  readonly body: unknown;
  readonly status: number | string;
}

/**
 * What shrinking a failure against the target found, with fast-check's own shrinking of the generated example:
 * the smallest request that still fails, the nearest that passes and the fields that tell them apart, and the
 * field values that every failing body of the property shares with no passing one.
 */
export interface MinimalExample {
  /** `shrunk` when requests were sent to shrink the failure; `skipped` when none were, with the reason. */
  readonly outcome: 'shrunk' | 'skipped';
  /** Why shrinking did not run, or why it stopped before fast-check had tried every smaller candidate. */
  readonly reason?: string;
  /** Shrink requests sent for this failure (each went through the run's request gate). */
  readonly requests: number;
  /** True when fast-check tried every candidate smaller than the minimal example; false when the budget stopped it. */
  readonly complete: boolean;
  /** How to regenerate the minimal body: `fc.sample(arbitrary, { seed, path, numRuns: 1 })` of the suite's property. */
  readonly replay?: { readonly property: string; readonly seed: number; readonly path: string };
  /** The smallest request found that still fails, with a curl command that sends it. */
  readonly failing?: ShrinkRequest & { readonly curl: string };
  /** The passing request closest to it (fewest fields changed), when one was sent. */
  readonly passing?: ShrinkRequest;
  /** The fields in which `failing` and `passing` differ. */
  readonly difference?: readonly FieldDifference[];
  /**
   * Both sent again: true when each fared as before; false when one did not (the failure hangs on the target's state
   * too); absent when the budget did not allow it.
   */
  readonly confirmed?: boolean;
  /** Field values every failing body of the property had and no passing one had. */
  readonly shared?: readonly SharedValue[];
  /** How many bodies of the property failed and passed, shrink requests included: what `shared` was drawn from. */
  readonly compared?: { readonly failing: number; readonly passing: number };
}

/**
 * A minimal example as short lines of prose: the request, what makes the difference, the values in common; the one
 * place it is worded.
 */
export function renderMinimalExample(minimal: MinimalExample): string[] {
  if (minimal.outcome === 'skipped')
    return [`not shrunk: ${minimal.reason ?? 'no reason given'}`, ...inCommonLines(minimal)];
  const lines: string[] = [];
  const stopped = minimal.complete ? '' : `; stopped early: ${minimal.reason ?? 'the shrink budget was spent'}`;
  const cost = `${minimal.requests} shrink request${minimal.requests === 1 ? '' : 's'}${stopped}`;
  if (minimal.failing)
    lines.push(
      `minimal example: ${body(minimal.failing.body)} ${outcomeWords(minimal.failing.status, true)} (${cost})`,
    );
  else lines.push(`no smaller request failed (${cost})`);
  const difference = minimal.difference ?? [];
  if (minimal.failing && minimal.passing && minimal.confirmed === false) {
    lines.push(
      'sent again, the smallest failing request or its nearest passing one fared differently: the failure ' +
        "depends on the target's state as well as on the request, so no field is named",
    );
  } else if (minimal.failing && minimal.passing && difference.length > 0) {
    const failingFields = difference.map((d) => fieldText(d.path, d.failing)).join(', ');
    const passingFields = difference.map((d) => fieldText(d.path, d.passing)).join(', ');
    const unconfirmed = minimal.confirmed === undefined ? ' (not sent again to confirm: no budget left)' : '';
    lines.push(
      `${outcomeWords(minimal.failing.status, true)} when ${failingFields}; the same body with ` +
        `${passingFields} is ${outcomeWords(minimal.passing.status, false)}${unconfirmed}`,
    );
  } else if (minimal.failing) {
    lines.push('no nearby request passed');
  }
  return [...lines, ...inCommonLines(minimal)];
}

function inCommonLines(minimal: MinimalExample): string[] {
  const shared = minimal.shared ?? [];
  if (shared.length === 0 || !minimal.compared) return [];
  const { failing, passing } = minimal.compared;
  const failed = minimal.failing ? outcomeNoun(minimal.failing.status, true) : 'failing';
  const passed = minimal.passing ? outcomeNoun(minimal.passing.status, false) : 'passing';
  return [
    `in common: every ${failed} body (${failing}) has ` +
      `${shared.map((s) => fieldText(s.path, s.value)).join(', ')}; no ${passed} body (${passing}) does`,
  ];
}

/**
 * How a request fared, in words: `rejected (HTTP 400)`, `accepted (HTTP 200)`, `answered HTTP 500`, `unanswered
 * (timeout)`.
 */
function outcomeWords(status: number | string, failing: boolean): string {
  if (typeof status === 'string') return `unanswered (${status})`;
  return `${outcomeNoun(status, failing)} (HTTP ${status})`;
}

function outcomeNoun(status: number | string, failing: boolean): string {
  if (typeof status === 'string') return 'unanswered';
  if (status >= 200 && status < 300) return failing ? 'accepted but failing' : 'accepted';
  if (status >= 500) return 'server-error';
  return failing ? 'rejected' : 'passing';
}

function body(value: unknown): string {
  const text = jsonText(value) ?? String(value);
  return text.length > 400 ? `${text.slice(0, 397)}...` : text;
}
