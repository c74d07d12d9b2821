import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take most of a run's CPU, longest first: the fault matrix's two halves, then the modes. vitest would
 * start them last on a clean clone (it runs larger files first when it has no timings), leaving the other workers
 * idle at the end.
 */
const HEAVY = ['test/faults-1.test.ts', 'test/faults-2.test.ts', 'test/modes.test.ts'];

/** The type check (one tsc process, about 13 s of CPU on one core): early, not left for the end of the run. */
const TYPECHECK = ['test/typecheck.test.ts'];

/**
 * The files that mostly wait (rate-limit windows, slow or silent targets, signals after a delay, idle heartbeats):
 * started next, so that their waits overlap the heavy files' CPU instead of leaving a core idle at the end.
 */
const WAITING = [
  'test/hostile-targets.test.ts',
  'test/pacing.test.ts',
  'test/interrupt.test.ts',
  'test/heartbeat.test.ts',
];

/** vitest's order: the heavy files first, then the type check and the waiting ones, so the workers end together. */
export class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = [...HEAVY, ...TYPECHECK, ...WAITING];
    const rank = (spec: TestSpecification): number => {
      const index = order.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? order.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
