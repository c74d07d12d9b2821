import { describe, expect, it } from 'vitest';
import { FAULTS } from '../../reference/faults.ts';
import { failedRules, runInProcess } from './in-process.ts';

/** Fault runs are short: few examples, a short timeout for the faults that hang. */
const FAST = ['--runs', '4', '--timeout-ms', '1500', '--seed', '20261121'];

/** Declares one test per fault in part `part` of `parts`: the run fails exactly the rules the fault declares. */
export function describeFaultMatrix(part: number, parts: number): void {
  describe(`faults, part ${part} of ${parts}: each fails exactly the rules it declares`, () => {
    FAULTS.filter((_, index) => index % parts === part - 1).forEach((fault) => {
      it(`${fault.name} → ${fault.breaks.join(', ')}`, async () => {
        const run = await runInProcess([...FAST, '--reference-fault', fault.name]);
        expect(run.report.errors).toEqual([]);
        expect(failedRules(run.report)).toEqual([...fault.breaks].sort());
        expect(run.code).toBe(1);
        const finding = run.report.results.find((r) => r.outcome === 'failed')?.findings[0];
        expect(finding?.reproduce.curl).toMatch(/^curl -sS -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:\d+\//);
        expect(finding?.reproduce.seed).toBe(20261121);
      });
    });
  });
}
