import type fc from 'fast-check';
import type { RunConfig } from '../settings/config.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Judged } from './record.ts';
import type { SendOptions } from '../transport/http-client.ts';
import type { Probe, PutBacks } from '../core/probe-types.ts';
import type { Finding } from '../evidence/finding.ts';
import type { ShrinkBudget } from './shrink-budget.ts';
import type { Operation } from '../spec/spec.ts';

/** What the neighbourhood's probes of an operation follow from: its path, query and body. */
export type NeighbourhoodSpec = Pick<Operation, 'pathParams' | 'uuidPathParams' | 'queryParams' | 'requestSchema'>;

/** What `send` returns: the exchange, what recording judged of it, and the findings it made that the ledger kept. */
export interface JudgedExchange extends Exchange, Judged {}

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
  /** The request body's fields of an operation whose values the documents leave open (`Operation.openFields`). */
  openFields(operationId: string): readonly string[];
  /** An operation of the specs, by its operationId. */
  operation(operationId: string): Operation;
  /** The methods the specs list on an operation's path (its own and its siblings'), in capitals. */
  listedMethods(operationId: string): readonly string[];
  /** Says why a part of the contract's neighbourhood was not sent to an operation: the coverage shows it. */
  notSent(operationId: string, part: string, reason: string): void;
  /**
   * Sends a request to an operation of either API; ids in the path default to the configured ones. Returns the
   * exchange as recording judged it: its judgements, and references to the findings it made.
   */
  send(operationId: string, request: ProbeRequest): Promise<JudgedExchange>;
  /**
   * Sends requests at once (released together through the request gate and the credential pacers) and returns their
   * exchanges unrecorded, each with its interval: the caller records each with `record`, once it knows what to judge
   * it by (the read sent after them, say).
   */
  sendTogether(requests: readonly { operationId: string; request: ProbeRequest }[]): Promise<Exchange[]>;
  /** Records (judges) an exchange `sendTogether` returned. */
  record(exchange: Exchange): JudgedExchange;
  /** What the run may still spend on shrinking: a sequence's shrink asks it before each step it sends. */
  readonly shrinkBudget: Pick<ShrinkBudget, 'refusal' | 'spend'>;
  /**
   * `--runs` examples (at most `cap`) of an arbitrary, from a seed derived from the run's seed and the property name;
   * all at once, so for a few (a base body, say): `eachExample` sends `--runs` of them.
   */
  examples<T>(property: string, arbitrary: fc.Arbitrary<T>, cap?: number): Example<T>[];
  /**
   * Runs `probe` on each of `--runs` examples (at most `cap`) of an arbitrary, the same examples as `examples` gives,
   * `--concurrency` at a time (one at a time `inOrder`): each is drawn when a probe before it is done, so that what
   * waits for the request gate does not grow with `--runs`. With `shrink`, the exchanges the probes return are noted
   * as they come, and the failures among them shrunk once all are back (`engine/shrink.ts`), within the run's
   * shrink budget.
   */
  eachExample<T>(
    property: string,
    arbitrary: fc.Arbitrary<T>,
    probe: (example: Example<T>) => Promise<JudgedExchange | undefined>,
    options?: EachExampleOptions<T>,
  ): Promise<void>;
  /**
   * Says that part of the group could not run (no resource to send it to, say): the rules it feeds there are not
   * judged, with this reason.
   */
  unable(
    reason: string,
    which?: {
      readonly operations?: readonly string[];
      readonly feeds?: readonly string[];
      /** The user's choice that explains it (another suite's groups it needs were left out), which then counts so. */
      readonly byChoice?: boolean;
    },
  ): void;
  /** Reports something the run changed and could not put back: every report says it first. */
  incident(message: string): void;
  /** Hands a value to the run's other suites under a topic (the credentials of a key the suite created, say). */
  share(topic: string, value: unknown): void;
  /**
   * Every value the suite named `suite` shared under `topic`, once none of its groups runs or will run; none when that
   * suite is not in the run (another shard's, say). When it shared none and the user left some of its groups out,
   * `choice` says why (for `unable`'s `byChoice`).
   */
  sharedBy(suite: string, topic: string): Promise<{ readonly values: readonly unknown[]; readonly choice?: string }>;
  /** An exchange this group sent as a report shows it: redacted, with a curl. */
  evidence(exchange: Exchange): Evidence;
  /**
   * Changes the finding of `rule` that `exchange` made, by its reference (else, when the ledger did not keep it, the
   * first of its operation without `sequence`); false when none is kept.
   */
  amendFinding(exchange: JudgedExchange, rule: string, amend: (finding: Finding) => Finding): boolean;
}

/** An exchange as a report may show it. */
export interface Evidence {
  /** `METHOD url`, redacted. */
  readonly request: string;
  readonly curl: string;
  /** Redacts a value taken from the exchange (a violation's expected or actual). */
  redact(value: unknown): unknown;
}

/** How `eachExample` runs a property's examples. */
export interface EachExampleOptions<T> {
  /** Examples at most, below `--runs`. */
  readonly cap?: number;
  /** One example at a time, in order (the steps of a chain on one resource). */
  readonly inOrder?: boolean;
  /**
   * How the group sends one more candidate, merging `more` into its probe: given, the failures among the probes'
   * exchanges are shrunk.
   */
  readonly shrink?: ShrinkTarget<T>['send'];
}

/**
 * What shrinking a property's failures needs beside its examples: the arbitrary they came from and how the group sends
 * one more.
 */
export interface ShrinkTarget<T> {
  /** The arbitrary the examples were drawn from (same constraints), which fast-check replays and shrinks. */
  readonly arbitrary: fc.Arbitrary<T>;
  /** Sends one candidate as the group sends an example, merging `more` into its probe. */
  send(value: T, more: Partial<Probe>): Promise<JudgedExchange>;
}

/** A set of probes run together; its class is the riskiest class of the operations it sends to. */
export interface ProbeGroup {
  readonly name: string;
  /** The operations it sends to: they decide its class, and explain skipped verdicts. */
  readonly operations: readonly string[];
  /**
   * The rules with parts it gives evidence for: `rule` (every part it can) or `rule#part`. Rules without parts need no
   * entry.
   */
  readonly feeds?: readonly string[];
  /** Groups of the same suite whose results it uses (a pipe they created, say): planned with it, run before it. */
  readonly after?: readonly string[];
  /**
   * Sends model-based sequences: the coverage of its operations counts their steps by the step before, or says why none
   * ran.
   */
  readonly sequences?: true;
  /** Sends probes of the contract's neighbourhood: when it does not run, the coverage of its operations says why. */
  readonly neighbourhood?: true;
  /**
   * Why the group cannot run with these settings (an optional setting the user left out, such as BACKUP_ID: a skip by
   * choice), or undefined when it can.
   */
  readonly requires?: (config: RunConfig) => string | undefined;
  /**
   * How many requests the group sends with `runs` examples per property, when every step succeeds; `operationOf` gives
   * the operations' specs, where the count follows from them.
   */
  estimate(runs: number, operationOf?: (operationId: string) => NeighbourhoodSpec): number;
  /**
   * The put-backs (requests that restore what it changed: `probe.restores`) it may send: with `--max-requests`, the
   * plan keeps `most` of them out of what the other requests may spend, so that none is refused.
   */
  readonly putBacks?: PutBacks;
  run(context: SuiteContext): Promise<void>;
}

/** One suite: the operations it judges and the probe groups that exercise them. */
export interface SuiteDefinition {
  readonly name: string;
  readonly operations: readonly string[];
  readonly groups: readonly ProbeGroup[];
  /** Run the groups one after another (for groups that share state on the target). */
  readonly sequential?: boolean;
  /**
   * Its groups are chains of steps, each waiting for the one before, long enough to set the run's time: its requests
   * are a lane of the gate (they take a free slot first, and one is kept for the lane while none is in flight). A
   * sequential suite is one chain, so always a lane.
   */
  readonly chained?: boolean;
  /**
   * The writes the preflight may send alone, before any probe, to confirm an id that no read can (an `IdSetting` of
   * apis/ whose `unknownWhen` names its operation): one per operation.
   */
  readonly confirmingWrites?: readonly ConfirmingWrite[];
}

/**
 * A write that confirms an id no read can (SERVICE_ID without BACKUP_ID): its 2xx says the target knows the id, its 404
 * that it does not; the preflight sends it after every read, and only where the run would send that operation anyway.
 */
export interface ConfirmingWrite {
  readonly operationId: string;
  /** What it is, as the report lists what it created: `a pipe created to confirm SERVICE_ID`. */
  readonly label: string;
  /** Its JSON body, drawn from the run's seed: what every reading of the documents allows (open fields left out). */
  readonly json: (seed: number, openFields: readonly string[]) => unknown;
}
/** Why no writes are sent at once in a run that allows one request at a time: their rules are then not judged. */
export const ONE_AT_A_TIME = 'the run allows one request at a time (--concurrency 1): no writes can be sent at once';
