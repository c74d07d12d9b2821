import type fc from 'fast-check';
import type { RunConfig } from '../../core/config.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { SendOptions } from '../../core/http-client.ts';
import type { Probe } from '../../core/probe.ts';

/** A request for `send`: the operation's parameters default to the configured ids. */
export type ProbeRequest = Omit<SendOptions, 'operation' | 'probe' | 'params'> & {
  readonly params?: Readonly<Record<string, string>>;
  readonly probe: Probe;
};

/** A generated example with where it came from, so that a finding can name it. */
export interface Example<T> {
  readonly value: T;
  readonly example: NonNullable<Probe['example']>;
}

/** What a probe group gets to work with. */
export interface SuiteContext {
  readonly config: RunConfig;
  /** Sends a request to an operation of either API; ids in the path default to the configured ones. */
  send(operationId: string, request: ProbeRequest): Promise<Exchange>;
  /** `--runs` examples (at most `cap`) of an arbitrary, from a seed derived from the run's seed and the property name. */
  examples<T>(property: string, arbitrary: fc.Arbitrary<T>, cap?: number): Example<T>[];
  /** Says that part of the group could not run (no resource to send it to, say): the rules it feeds there are not judged, with this reason. */
  unable(reason: string, which?: { readonly operations?: readonly string[]; readonly feeds?: readonly string[] }): void;
  /** Reports something the run changed and could not put back: every report says it first. */
  incident(message: string): void;
  /** Shrinks the failures of a property's examples against the target (`suites/support/shrink.ts`), within the run's shrink budget. */
  shrink<T>(target: ShrinkTarget<T>): Promise<void>;
}

/** A property's examples as sent, for `shrink`: the arbitrary they came from and how the group sends one more. */
export interface ShrinkTarget<T> {
  /** The arbitrary given to `examples` for the property (same constraints), which fast-check replays and shrinks. */
  readonly arbitrary: fc.Arbitrary<T>;
  /** The exchanges of the property's examples (their probes name the example). */
  readonly sent: readonly Exchange[];
  /** Sends one candidate as the group sends an example, merging `more` into its probe. */
  send(value: T, more: Partial<Probe>): Promise<Exchange>;
}

/** A set of probes run together; its class is the riskiest class of the operations it sends to. */
export interface ProbeGroup {
  readonly name: string;
  /** The operations it sends to: they decide its class, and explain skipped verdicts. */
  readonly operations: readonly string[];
  /** The rules with parts it gives evidence for: `rule` (every part it can) or `rule#part`. Rules without parts need no entry. */
  readonly feeds?: readonly string[];
  /** Groups of the same suite whose results it uses (a pipe they created, say): planned with it, run before it. */
  readonly after?: readonly string[];
  /** Why the group cannot run with these settings (a missing id, say), or undefined when it can. */
  readonly requires?: (config: RunConfig) => string | undefined;
  /** How many requests the group sends with `runs` examples per property, when every step succeeds. */
  estimate(runs: number): number;
  run(context: SuiteContext): Promise<void>;
}

/** One suite: the operations it judges and the probe groups that exercise them. */
export interface SuiteDefinition {
  readonly name: string;
  readonly operations: readonly string[];
  readonly groups: readonly ProbeGroup[];
  /** Run the groups one after another (for groups that share state on the target). */
  readonly sequential?: boolean;
}
