/** What a request could do to a target: read (GET only), write (POST, PATCH, PUT), or disruptive (service state). */
export type ProbeClass = 'read' | 'write' | 'disruptive';

/** Every probe class, in order of growing risk. */
export const PROBE_CLASSES: readonly ProbeClass[] = Object.freeze(['read', 'write', 'disruptive']);

/** What a probe expects of the target: acceptance (must-accept), rejection, or nothing in particular (observe). */
export type ProbeIntent = 'accept' | 'reject' | 'observe';

/** Why a request was sent and what it should provoke; carried by every exchange. */
export interface Probe {
  readonly intent: ProbeIntent;
  /** Short description of the request, e.g. `roles: []`. */
  readonly label: string;
  /** Rules this probe was built for (a rejection probe names the rule its request breaks). */
  readonly rules?: readonly string[];
  /** The part of those rules it is evidence for, where the rule names parts by more than the intent (`start`, say). */
  readonly part?: string;
  /**
   * False for a request that only puts back what the run changed: its answer is checked, but is no evidence that a rule
   * holds.
   */
  readonly evidence?: false;
  /** Data that rules compare the response against (values sent earlier in a sequence, say). */
  readonly expect?: Readonly<Record<string, unknown>>;
  /**
   * A candidate of shrinking a failure of this property (a smaller request, a shorter sequence): judged again, but no
   * evidence, and counted apart from the planned requests.
   */
  readonly shrink?: { readonly property: string };
  /**
   * Puts back what the run changed: still sent after an interrupt, and within what `--max-requests` keeps for put-backs
   * (`PutBacks`).
   */
  readonly restores?: true;
  /**
   * For a step of a model-based sequence: its kind (`to`: `update`, `read settings`) and the kind of the step before it
   * (`from`, `start` for the first), which the coverage counts.
   */
  readonly transition?: { readonly from: string; readonly to: string };
  /** How to regenerate the request: the property's seed and the example's index. */
  readonly example?: { readonly seed: number; readonly index: number; readonly property: string };
  /**
   * For a probe of the contract's neighbourhood: the part of a request or kind of value it sends (`no Content-Type`,
   * `U+0000 in a string`) and where (a field's path, a parameter, a method), which the coverage counts.
   */
  readonly neighbourhood?: { readonly part: string; readonly where?: string };
  /**
   * The only rules that judge it, for a request outside every documented operation (a method its path does not list):
   * its answer is no operation's, so no rule of an operation's answers applies.
   */
  readonly judgedBy?: readonly string[];
}

/** How many put-backs a probe group (or a plan) may send. */
export interface PutBacks {
  /** The most it may send, whatever the target answers. */
  readonly most: number;
  /** How many of them `estimate` counts: those a target that keeps the contract makes it send. */
  readonly estimated: number;
}

/** The put-backs beyond those an estimate counts: those only a target that breaks the contract makes the run send. */
export function putBacksBeyond(putBacks: PutBacks): number {
  return putBacks.most - putBacks.estimated;
}
