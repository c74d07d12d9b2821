import fc from 'fast-check';
import { withoutBigInts } from '../core/json-text.ts';
import type { SequenceExample, SequenceStep } from '../evidence/sequence-example.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import type { Exchange } from '../transport/exchange.ts';
import { type Allowance, type Drawn, type Ran, type RanStep, runOnce, type SequenceRun } from './sequence-once.ts';
import type { SuiteContext } from './suite-types.ts';

/** One rule broken on one operation (a verdict's cause), with every sequence that failed it and its index. */
export interface SequenceCause {
  readonly rule: string;
  readonly operationId: string;
  readonly failing: { index: number; ran: Ran }[];
}

/** The smallest failing sequence shrinking found, at the index it was replayed from, and fast-check's run of it. */
interface Found<M extends object, S> {
  readonly index: number;
  readonly smallest: Ran;
  readonly details: fc.RunDetails<[Drawn<M, S>]>;
}

/** A cause's share of the shrink budget: the run's, and `perCause` requests of it at most. */
class CauseAllowance implements Allowance {
  /** Requests this cause's shrink sent. */
  spent = 0;

  constructor(
    readonly context: SuiteContext,
    readonly perCause: number,
  ) {}

  refusal(count: number): string | undefined {
    return (
      this.context.shrinkBudget.refusal(count) ??
      (this.spent + count > this.perCause
        ? `the shrink budget of ${this.perCause} requests per cause is spent`
        : undefined)
    );
  }

  spend(): void {
    this.spent += 1;
    this.context.shrinkBudget.spend('sequences');
  }
}

/**
 * Shrinks a cause's failing sequences in the order of their index, until one fails again when fast-check replays it
 * (another sequence run at the same time may have caused it); fast-check then tries shorter ones, each of which fails
 * when a step of the same operation breaks the same rule. Every step of every candidate asks the budget first, so
 * that shrinking stops between two steps when it is spent. The shortest goes on the finding of the first failure.
 */
export async function shrinkSequenceCause<M extends object, S>(
  run: SequenceRun<M, S>,
  drawn: fc.Arbitrary<Drawn<M, S>>,
  cause: SequenceCause,
): Promise<void> {
  const failing = [...cause.failing].sort((a, b) => a.index - b.index);
  const first = failing[0]!;
  const allowance = new CauseAllowance(run.context, DEFAULTS.sequenceShrinkRequestsPerCause);
  let stopped: string | undefined;
  let found: Found<M, S> | undefined;
  for (const { index } of failing) {
    stopped ??= allowance.refusal(1);
    if (stopped || found) break;
    const shrunk = await shrinkOne(run, drawn, cause, index, allowance);
    stopped = shrunk.stopped;
    if (shrunk.smallest) found = { index, smallest: shrunk.smallest, details: shrunk.details };
  }
  if (!found && !stopped)
    stopped =
      `sent again alone, none of the ${failing.length} failing sequence(s) failed: the failure depends on ` +
      'more than their own steps';
  const example = sequenceExample(run, cause.rule, first, found, stopped, allowance.spent);
  run.context.amendFinding(first.ran.failure!.exchange, cause.rule, (finding) => ({ ...finding, sequence: example }));
}

/**
 * Replays the sequence at `index` with `fc.check` and, when it fails the cause again, lets fast-check shrink it: the
 * smallest candidate that failed it, and why shrinking stopped before its end (a step the allowance or gate refused).
 */
async function shrinkOne<M extends object, S>(
  run: SequenceRun<M, S>,
  drawn: fc.Arbitrary<Drawn<M, S>>,
  { rule, operationId }: SequenceCause,
  index: number,
  allowance: Allowance,
): Promise<{ smallest: Ran | undefined; stopped: string | undefined; details: fc.RunDetails<[Drawn<M, S>]> }> {
  let stopped: string | undefined;
  let replayed = false;
  let smallest: Ran | undefined;
  const details = await fc.check(
    fc.asyncProperty(drawn, async (value) => {
      if (stopped) return true;
      const ran = await runOnce(run, value, index, allowance);
      if (ran.refused) {
        stopped = ran.refused;
        return true;
      }
      const fails = ran.failure?.exchange.operationId === operationId && ran.failure.violations.has(rule);
      // Only a sequence that fails again is shrunk: one that does not fails for more than its own steps.
      if (!replayed && !fails) return true;
      replayed = true;
      if (!fails) return true;
      smallest = ran;
      return false;
    }),
    { seed: run.seed, path: String(index), numRuns: 1 },
  );
  return { smallest, stopped, details };
}

/** The example a cause's finding shows: the shortest failing sequence found (else the first), step by step. */
function sequenceExample<M extends object, S>(
  { context, spec, seed }: SequenceRun<M, S>,
  rule: string,
  first: { index: number; ran: Ran },
  found: Found<M, S> | undefined,
  stopped: string | undefined,
  spent: number,
): SequenceExample {
  const shown = found?.smallest ?? first.ran;
  const failure = shown.failure!;
  const violation = failure.violations.get(rule)!;
  const counterexample = found?.details.counterexample?.[0];
  const replayPath =
    counterexample === undefined ? undefined : /replayPath="([^"]*)"/.exec(String(counterexample[2]))?.[1];
  const redact = context.evidence(failure.exchange).redact;
  return {
    outcome: found ? 'shrunk' : 'skipped',
    ...(stopped ? { reason: stopped } : {}),
    requests: spent,
    complete: stopped === undefined,
    steps: shown.steps.map((step) => sequenceStep(context, step)),
    failingStep: shown.steps.findIndex((step) => step.exchange === failure.exchange) + 1,
    path: violation.path,
    expected: String(redact(violation.expected)),
    ...(violation.explanation ? { explanation: violation.explanation.map((line) => String(redact(line))) } : {}),
    ...(violation.actual === undefined ? {} : { actual: withoutBigInts(redact(violation.actual)) }),
    replay: {
      property: spec.property,
      seed,
      path: found?.details.counterexamplePath ?? String(first.index),
      ...(replayPath ? { replayPath } : {}),
    },
  };
}

/** A step as the example shows it; writes sent at once each with when it was sent and answered, from the first. */
function sequenceStep(context: SuiteContext, { command, exchange, atOnce }: RanStep): SequenceStep {
  if (!atOnce) return { command, ...shownExchange(context, exchange) };
  const start = Math.min(...atOnce.map((one) => one.interval?.sent ?? Number.POSITIVE_INFINITY));
  const at = (ms: number | undefined): number => (ms === undefined ? 0 : Math.round(ms - start));
  return {
    command,
    ...shownExchange(context, exchange),
    atOnce: atOnce.map((one) => ({
      ...shownExchange(context, one),
      sent: at(one.interval?.sent),
      answered: at(one.interval?.answered),
    })),
  };
}

/** An exchange as a step shows it: its redacted request, its curl and its status. */
function shownExchange(context: SuiteContext, one: Exchange): Pick<SequenceStep, 'request' | 'curl' | 'status'> {
  const evidence = context.evidence(one);
  return {
    request: evidence.request,
    curl: evidence.curl,
    status: one.response?.status ?? one.failure?.code ?? 'no answer',
  };
}
