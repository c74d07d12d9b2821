import type { Hooks, OperationId } from './hooks.ts';
import type { RuleId } from './rule-id.ts';
import type { Store } from './store.ts';

/** A named defect the target can be started with: what it does, the rules it breaks, and its hooks. */
export interface Fault {
  readonly name: string;
  readonly description: string;
  /** Every rule a correct harness reports against this fault, and no other. */
  readonly breaks: readonly RuleId[];
  /** The operations on which each of those rules fails, and no other: the fault's rule × operation verdicts. */
  readonly on: readonly OperationId[];
  /**
   * Verdicts it fails beyond `breaks` × `on`: a rule of `breaks` on further operations; `sometimes` where only a drawn
   * sequence that visits the state showing it fails it, so that whether it fails depends on the seed.
   */
  readonly also?: readonly { readonly rule: RuleId; readonly on: readonly OperationId[]; readonly sometimes?: true }[];
  /** Creates the fault's hooks, with any state they keep, for one start of the target whose state is `store`. */
  readonly install: (store: Store) => Hooks;
}

/** A fault whose hooks are made once per start of the target (`install`), with the verdicts it fails. */
export function statefulFault(
  name: string,
  description: string,
  breaks: readonly RuleId[],
  on: readonly OperationId[],
  install: (store: Store) => Hooks,
  also?: Fault['also'],
): Fault {
  return {
    name,
    description,
    breaks: Object.freeze([...breaks]),
    on: Object.freeze([...on]),
    ...(also ? { also: Object.freeze([...also]) } : {}),
    install,
  };
}
