import type { Exchange } from '../transport/exchange.ts';

/**
 * What a count of requests sent with the run's own credentials saw: how many went, how many were refused or not found.
 */
export interface CredentialCount {
  sent: number;
  /** Answered 401 or 403. */
  refused: number;
  /** Answered 404. */
  notFound: number;
}

/**
 * The requests sent with the run's own credentials, counted per API and per operationId: plain data, for test metadata.
 */
export interface CredentialTally {
  /** Every request with the API's own credentials. */
  readonly apis: Record<string, CredentialCount>;
  /**
   * Only those not built to be rejected (must-accept and observe probes: an invalid one may be rejected before its ids
   * are looked up), so that a run whose must-accept creates wait on values only observe creates can learn still
   * counts its creates.
   */
  readonly operations: Record<string, CredentialCount>;
}

/** Creates an empty tally. */
export function createCredentialTally(): CredentialTally {
  return { apis: {}, operations: {} };
}

/** Counts one exchange if it was sent with the API's own credentials (requests the run did not send are left out). */
export function countCredentialUse(tally: CredentialTally, exchange: Exchange): void {
  if (exchange.request.auth !== 'default' || exchange.failure?.code === 'budget') return;
  const status = exchange.response?.status;
  count((tally.apis[exchange.api] ??= empty()), status);
  if (exchange.probe.intent !== 'reject') count((tally.operations[exchange.operationId] ??= empty()), status);
}

function count(into: CredentialCount, status: number | undefined): void {
  into.sent += 1;
  if (status === 401 || status === 403) into.refused += 1;
  if (status === 404) into.notFound += 1;
}

/** Adds up tallies (one per suite). */
export function mergeCredentialTallies(tallies: readonly (CredentialTally | undefined)[]): CredentialTally {
  const merged = createCredentialTally();
  for (const tally of tallies) {
    if (!tally) continue;
    for (const [key, count] of Object.entries(tally.apis)) add((merged.apis[key] ??= empty()), count);
    for (const [key, count] of Object.entries(tally.operations)) add((merged.operations[key] ??= empty()), count);
  }
  return merged;
}

function empty(): CredentialCount {
  return { sent: 0, refused: 0, notFound: 0 };
}

function add(into: CredentialCount, count: CredentialCount): void {
  into.sent += count.sent;
  into.refused += count.refused;
  into.notFound += count.notFound;
}
