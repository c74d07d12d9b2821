import { NO_SEQUENCES } from '../../rules/sequence.ts';
import type { ProbeGroup } from './suite-types.ts';

/** The group a sequence rule is reported through until sequences are sent: it sends nothing and says why the rule is not judged. */
export function unsequenced(rule: string, operations: readonly string[]): ProbeGroup {
  return {
    name: `model-based sequences (${rule})`,
    operations,
    feeds: [rule],
    estimate: () => 0,
    run: async (context) => context.unable(NO_SEQUENCES),
  };
}
