import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../run/run-report-types.ts';
import type { Fault } from '../../reference/fault.ts';
import { FAULTS } from '../../reference/faults.ts';
import { declaredPairs, failedPairs, sometimesPairs, undeclared } from './fault-verdicts.ts';
import { runInProcess } from './in-process.ts';

/**
 * Fault runs are short: few examples, and a timeout that catches a hang in a few seconds for the faults that break
 * `transport.answers` (they hang or cut the connection); every other fault gets a generous one, so that a loaded
 * machine adds no timeout of its own. A hanging fault waits out its timeout on each settings read of a chain, one after
 * the other (about eleven rounds a run): 3000 ms, not less, is what a correct answer never takes even with the fault's
 * runs at once on a loaded machine.
 */
const fast = (fault: Fault): string[] => [
  '--runs',
  '4',
  '--timeout-ms',
  fault.breaks.includes('transport.answers') ? '3000' : '5000',
];

/**
 * Each fault's own seed, so that the matrix spans as many seeds as faults: CI runs each fault on one seed, and the seed
 * sweep (`npm run seeds -- --faults …`) on twenty, where every declared verdict must fail on every seed.
 */
const seedOf = (index: number): number => 1 + ((index * 7919) % 100_000);

/** Every verdict of a run, keyed `rule on operation`. */
const verdicts = (report: RunReport): Map<string, RunReport['results'][number]> =>
  new Map(report.results.map((r) => [`${r.rule} on ${r.operation}`, r]));

/**
 * The restriction a fault's run is also checked under: `--allow read,write` and `--allow read` in turn, so that each
 * is checked on half the faults; both on every fault would cost CI a third more.
 */
const RESTRICTIONS = ['read,write', 'read'] as const;

/**
 * Declares one test per fault in part `part` of `parts`: the run fails exactly the rule × operation verdicts the
 * fault declares, on the fault's own seed; under the fault's restriction (`--allow read,write` or `--allow read`),
 * on the same seed, every verdict is the full run's or skipped by choice, so that a rule whose probes were not allowed
 * is never passed.
 */
export function describeFaultMatrix(part: number, parts: number): void {
  describe(`faults, part ${part} of ${parts}: each fails exactly the rule × operation verdicts it declares`, () => {
    FAULTS.forEach((fault, index) => {
      if (index % parts !== part - 1) return;
      const seed = seedOf(index);
      // In turn within each part, so that the parts cost alike.
      const restriction = RESTRICTIONS[Math.floor(index / parts) % RESTRICTIONS.length]!;
      const name = `${fault.name} → ${fault.breaks.join(', ')} on ${fault.on.join(', ')}`;
      it(`${name} (seed ${seed}; --allow ${restriction})`, async () => {
        const declared = declaredPairs(fault);
        // A fault that declares nothing it always fails would prove nothing on a seed that happens not to show it.
        expect(declared.length, 'verdicts the fault fails on every seed').toBeGreaterThan(0);
        const sometimes = sometimesPairs(fault);
        // The fault's two runs at once: each waits on sockets and timers part of its time, which the other fills
        // (one process, so the specs and the build load once). A hanging fault's runs wait out their timeouts
        // together: one after the other they took twice as long.
        const [first, restricted] = await Promise.all(
          [[], ['--allow', restriction]].map((allow) =>
            runInProcess(
              [...fast(fault), '--seed', String(seed), ...allow, '--reference-fault', fault.name],
              {},
              {
                inThisThread: true,
              },
            ),
          ),
        );
        expect(first!.report.errors).toEqual([]);
        expect(undeclared(fault, await failedPairs(first!.report)), `--seed ${seed}`).toEqual({
          missed: [],
          extra: [],
        });
        expect(first!.code).toBe(1);
        const finding = first!.report.results.find((r) => r.outcome === 'failed')?.findings[0];
        expect(finding?.reproduce.curl).toMatch(/^curl -sS -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\//);
        expect(finding?.reproduce.seed).toBe(seed);

        const full = verdicts(first!.report);
        expect(restricted!.report.errors).toEqual([]);
        const changed = restricted!.report.results.filter((r) => {
          const before = full.get(`${r.rule} on ${r.operation}`);
          return (
            r.outcome !== before?.outcome &&
            !(r.outcome === 'skipped' && r.skipKind === 'by-choice') &&
            // On the fault's own operations a restriction may leave a rule without an answer to judge (every GET
            // reset, say, where the full run judged the other methods' answers): not judged, never passed.
            !(
              r.outcome === 'skipped' &&
              r.skipKind === 'not-judged' &&
              (fault.on as readonly string[]).includes(r.operationId ?? '')
            ) &&
            !sometimes.has(`${r.rule} on ${r.operationId}`)
          );
        });
        expect(
          changed.map((r) => `--allow ${restriction}: ${r.rule} on ${r.operation} ${r.outcome}: ${r.message}`),
        ).toEqual([]);
      });
    });
  });
}
