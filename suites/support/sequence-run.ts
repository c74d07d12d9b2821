import fc from 'fast-check';
import type { Exchange } from '../../core/exchange.ts';
import type { Probe } from '../../core/probe.ts';
import type { Violation } from '../../core/rule.ts';
import type { SequenceExample, SequenceStep } from '../../core/sequence-example.ts';
import { propertySeed } from './seeds.ts';
import type { ProbeRequest, SuiteContext } from './suite-types.ts';

/** Requests that shrinking one failing sequence may send: each candidate sends its steps again. */
export const SEQUENCE_SHRINK_REQUESTS = 300;

/** How a sequence's commands send a step. */
export interface SequenceReal {
  /** Sends one step (`command` names it in the report); throws when its answer breaks a rule the sequence judges. */
  step(command: string, operationId: string, request: ProbeRequest): Promise<Exchange>;
}

/** A command of a sequence: fast-check draws it, checks it against the model, and runs it on the model and the target. */
export type SequenceCommand<M extends object> = fc.AsyncCommand<M, SequenceReal>;

/** A property whose examples are sequences of commands, each run against a fresh model. */
export interface SequenceProperty<M extends object> {
  readonly property: string;
  readonly commands: fc.Arbitrary<Iterable<SequenceCommand<M>>>;
  /** The model a sequence starts from; it may send steps (a list read, say). */
  readonly setup: (real: SequenceReal) => Promise<M>;
  /** The rules whose violation on a step fails the sequence (and is shrunk). */
  readonly rules: readonly string[];
  /** Sequences to run, and how many at once. */
  readonly count: number;
  readonly width: number;
  /** Hears every step's exchange as it comes back (to note what the run changed, say). */
  readonly onStep?: (exchange: Exchange) => void;
}

/** A step's answer broke a rule the sequence judges: the model run stops there. */
class Disagreement extends Error {
  constructor(
    readonly rule: string,
    readonly violation: Violation,
    readonly exchange: Exchange,
  ) {
    super(`${rule}: ${violation.path} expected ${violation.expected}`);
  }
}

/** The request gate refused a step (budget, interrupt): the sequence cannot go on. */
class Refused extends Error {}

interface Ran {
  readonly steps: { readonly command: string; readonly exchange: Exchange }[];
  readonly failure?: Disagreement;
  readonly refused?: boolean;
}

/**
 * Runs `count` sequences of the property, `width` at once, each with `fc.asyncModelRun` from the property's seed and
 * its index (`fc.check` with that `path`). The first failing sequence of each rule is shrunk by fast-check (fewer
 * steps first, then the values the commands let shrink: which pipe a step names, not its body, as every candidate is
 * a whole sequence sent to the target), within `SEQUENCE_SHRINK_REQUESTS`; the shortest failing sequence goes on the
 * kept finding of its first failing step.
 */
export async function runSequences<M extends object>(context: SuiteContext, spec: SequenceProperty<M>): Promise<void> {
  const property = spec.property;
  const seed = propertySeed(context.config.seed, property);
  const claimed = new Set<string>();
  const shrinkable = context.config.maxRequests === undefined;

  const once = async (commands: Iterable<SequenceCommand<M>>, index: number, more: Partial<Probe>): Promise<Ran> => {
    const steps: Ran['steps'] = [];
    const real: SequenceReal = {
      async step(command, operationId, request) {
        const exchange = await context.send(operationId, { ...request, probe: { ...request.probe, example: { property, seed, index }, ...more } });
        steps.push({ command, exchange });
        spec.onStep?.(exchange);
        if (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted') throw new Refused();
        for (const { rule, violations } of context.recorded(exchange).judgements) {
          const violation = spec.rules.includes(rule) ? violations[0] : undefined;
          if (violation) throw new Disagreement(rule, violation, exchange);
        }
        return exchange;
      },
    };
    try {
      await fc.asyncModelRun(async () => ({ model: await spec.setup(real), real }), commands);
      return { steps };
    } catch (error) {
      if (error instanceof Disagreement) return { steps, failure: error };
      if (error instanceof Refused) return { steps, refused: true };
      throw error;
    }
  };

  const sequence = async (index: number): Promise<void> => {
    let first: Ran | undefined;
    let smallest: Ran | undefined;
    let spent = 0;
    let stopped: string | undefined;
    let mine = false;
    const details = await fc.check(
      fc.asyncProperty(spec.commands, async (commands) => {
        if (first && (!mine || stopped)) return true;
        if (first && spent >= SEQUENCE_SHRINK_REQUESTS) {
          stopped = `the shrink budget of ${SEQUENCE_SHRINK_REQUESTS} requests per failing sequence is spent`;
          return true;
        }
        const ran = await once(commands, index, first ? { evidence: false } : {});
        if (first) spent += ran.steps.length;
        if (ran.refused) stopped = "the run's request gate refused a step";
        if (!ran.failure) return true;
        if (!first) {
          first = ran;
          mine = shrinkable && !claimed.has(ran.failure.rule);
          claimed.add(ran.failure.rule);
          if (!shrinkable) stopped = 'not shrunk: with --max-requests the planned requests come first';
        }
        if (ran.failure.rule !== first.failure!.rule) return true;
        smallest = ran;
        return false;
      }),
      { seed, path: String(index), numRuns: 1 },
    );
    if (!first?.failure || !(mine || !shrinkable)) return;
    const shown = smallest ?? first;
    const failure = shown.failure!;
    const counterexample = details.counterexample?.[0];
    const replayPath = counterexample === undefined ? undefined : /replayPath="([^"]*)"/.exec(String(counterexample))?.[1];
    const redact = context.recorded(failure.exchange).redact;
    const example: SequenceExample = {
      outcome: shrinkable ? 'shrunk' : 'skipped',
      ...(stopped ? { reason: stopped } : {}),
      requests: spent,
      complete: stopped === undefined,
      steps: shown.steps.map(({ command, exchange }): SequenceStep => {
        const evidence = context.recorded(exchange);
        return { command, request: evidence.request, curl: evidence.curl, status: exchange.response?.status ?? exchange.failure?.code ?? 'no answer' };
      }),
      failingStep: shown.steps.findIndex((step) => step.exchange === failure.exchange) + 1,
      path: failure.violation.path,
      expected: String(redact(failure.violation.expected)),
      ...(failure.violation.actual === undefined ? {} : { actual: redact(failure.violation.actual) }),
      replay: { property, seed, path: details.counterexamplePath ?? String(index), ...(replayPath ? { replayPath } : {}) },
    };
    context.amendFinding(first.failure.exchange, first.failure.rule, (finding) => ({ ...finding, sequence: example }));
  };

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < spec.count) await sequence(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(spec.width, spec.count)) }, lane));
}
