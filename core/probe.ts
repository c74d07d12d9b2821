/** What a probe may do to a target: read (GETs and requests built to be rejected), write, or disruptive. */
export type ProbeClass = 'read' | 'write' | 'disruptive';

/** Every probe class, in order of growing risk. */
export const PROBE_CLASSES: readonly ProbeClass[] = Object.freeze(['read', 'write', 'disruptive']);

/** What a probe expects of the target: acceptance, rejection, or nothing in particular. */
export type ProbeIntent = 'accept' | 'reject' | 'observe';

/** Why a request was sent and what it should provoke; carried by every exchange. */
export interface Probe {
  readonly intent: ProbeIntent;
  readonly klass: ProbeClass;
  /** Short description of the request, e.g. `roles: []`. */
  readonly label: string;
  /** Rules this probe was built for (a rejection probe names the rule its request breaks). */
  readonly rules?: readonly string[];
  /** Data that rules compare the response against (values sent earlier in a sequence, say). */
  readonly expect?: Readonly<Record<string, unknown>>;
  /** Puts back what the run changed: still sent after an interrupt. */
  readonly restores?: true;
  /** How to regenerate the request: the property's seed and the example's index. */
  readonly example?: { readonly seed: number; readonly index: number; readonly property: string };
}
