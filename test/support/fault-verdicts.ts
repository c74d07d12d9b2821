import type { RunReport } from '../../run/run-report-types.ts';
import { concerns } from '../../rule-model/rule.ts';
import { loadSpecs } from '../../spec/spec.ts';
import { RULES } from '../../rules/index.ts';
import type { Fault } from '../../reference/fault.ts';

/**
 * The verdicts a fault declares, as sorted `rule on operationId`, and how a run's failed verdicts compare with them:
 * the fault matrix requires them on a fault's own seed, the seed sweep (`npm run seeds -- --faults all`) on many.
 */

/** Every `rule on operationId` of the rule table: the verdicts a run gives. */
const CONCERNS: ReadonlySet<string> = await (async () => {
  const { operations } = await loadSpecs();
  return new Set(
    RULES.flatMap((rule) =>
      operations.filter((op) => concerns(rule, op)).map((op) => `${rule.id} on ${op.operationId}`),
    ),
  );
})();

/** The failed verdicts of a run, as sorted `rule on operationId`. */
export async function failedPairs(report: RunReport): Promise<string[]> {
  const operationIds = new Map((await loadSpecs()).operations.map((op) => [op.key, op.operationId]));
  return report.results
    .filter((r) => r.outcome === 'failed')
    .map((r) => `${r.rule} on ${operationIds.get(r.operation) ?? r.operation}`)
    .sort();
}

/**
 * The verdicts a fault fails only on seeds whose sequences visit the state that shows them: neither required nor
 * refused.
 */
export function sometimesPairs(fault: Fault): Set<string> {
  return new Set(
    (fault.also ?? []).filter((entry) => entry.sometimes).flatMap(({ rule, on }) => on.map((op) => `${rule} on ${op}`)),
  );
}

/**
 * The rule × operation verdicts a fault declares it always fails: `breaks` × `on` where the rule concerns the
 * operation, and its `also`, but the `sometimes` ones, as sorted `rule on operationId`.
 */
export function declaredPairs(fault: Fault): string[] {
  const always = (fault.also ?? []).filter((entry) => !entry.sometimes);
  const sometimes = sometimesPairs(fault);
  const pairs = [
    ...fault.breaks.flatMap((rule) =>
      fault.on.filter((op) => CONCERNS.has(`${rule} on ${op}`)).map((op) => `${rule} on ${op}`),
    ),
    ...always.flatMap(({ rule, on }) => on.map((op) => `${rule} on ${op}`)),
  ];
  return [...new Set(pairs)].filter((pair) => !sometimes.has(pair)).sort();
}

/**
 * Where a run's failed verdicts (`rule on operationId`) differ from what the fault declares: the declared ones that did
 * not fail, and the failures it does not declare (its `sometimes` verdicts count as neither).
 */
export function undeclared(
  fault: Fault,
  failed: readonly string[],
): { readonly missed: readonly string[]; readonly extra: readonly string[] } {
  const declared = declaredPairs(fault);
  const sometimes = sometimesPairs(fault);
  const got = new Set(failed);
  return {
    missed: declared.filter((pair) => !got.has(pair)),
    extra: [...got].filter((pair) => !declared.includes(pair) && !sometimes.has(pair)).sort(),
  };
}
