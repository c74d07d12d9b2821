import type fc from 'fast-check';
import type { RunConfig } from '../../core/config.ts';
import type { Exchange } from '../../core/exchange.ts';
import type { SendOptions } from '../../core/http-client.ts';
import type { Probe, ProbeClass } from '../../core/probe.ts';
import type { CreatedResource } from '../../core/run-report.ts';

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
  /** Lists a resource the run created, for the report. */
  created(resource: CreatedResource): void;
}

/** A set of probes of one class, run together. */
export interface ProbeGroup {
  readonly name: string;
  readonly klass: ProbeClass;
  /** The operations it sends to; used to explain skipped verdicts. */
  readonly operations: readonly string[];
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
