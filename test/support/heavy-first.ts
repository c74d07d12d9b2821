import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take most of a run, longest first: the fault matrix's two halves, then the modes. vitest would
 * start them last on a clean clone (it runs larger files first when it has no timings), leaving one worker alone
 * with them at the end.
 */
const HEAVY = ['test/faults-1.test.ts', 'test/faults-2.test.ts', 'test/modes.test.ts'];

/** vitest's order with the heavy files first, so that the two workers finish together. */
export class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const index = HEAVY.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? HEAVY.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
