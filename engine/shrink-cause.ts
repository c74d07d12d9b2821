import fc from 'fast-check';
import { withoutBigInts } from '../core/json-text.ts';
import { causeKey, type KindEvidence } from '../evidence/cause-key.ts';
import { differences, leaves, type SharedValue } from '../evidence/difference.ts';
import type { MinimalExample, ShrinkRequest } from '../evidence/minimal-example.ts';
import { judge, type Judgement } from '../rule-model/judge.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import type { Exchange } from '../transport/exchange.ts';
import { reproduction } from './record.ts';
import type { Session } from './session.ts';
import type { JudgedExchange, ShrinkTarget } from './suite-types.ts';

/** What shrinking needs of the run's session: its shrink budget, and what judging and reproducing a request take. */
export type ShrinkSession = Pick<
  Session,
  'config' | 'specs' | 'gate' | 'redactor' | 'validators' | 'memories' | 'operation' | 'shrinkBudget'
>;

/** Requests of a failure's budget kept back while shrinking, to send the failing and the passing request again. */
const CONFIRMING = 2;

/** How one request of a shrink fared against the failure being shrunk. */
type Fared = 'fails' | 'passes' | 'other';

interface Tried {
  readonly exchange: Exchange;
  readonly fared: Fared;
}

/** A cause's examples, by index: those that failed it and those that passed its rule, and their bodies drawn again. */
export interface Examples {
  readonly failing: readonly number[];
  readonly passing: readonly number[];
  bodiesAt(indices: readonly number[]): Iterable<unknown>;
}

/** Shrinks one cause of failure at a time against the target, within the shrink budget per cause and per run. */
export class CauseShrinker {
  constructor(
    readonly session: ShrinkSession,
    readonly rules: readonly Rule[],
    readonly limits: { readonly perCause: number; readonly perRun: number },
  ) {}

  /** How the rules judge an exchange, judged again (`again`: as a second look). */
  judged(exchange: Exchange): ReturnType<typeof judge> {
    const { session } = this;
    return judge(
      exchange,
      this.rules,
      {
        operation: session.operation(exchange.operationId),
        specs: session.specs,
        validators: session.validators,
        again: true,
      },
      session.memories,
    );
  }

  /**
   * How an example's exchange fares, rule by rule: judged again only when a rule found a violation in it as it was
   * recorded (judging every example twice was a tenth of what a run's worker allocated), since a second look can differ
   * from the first only where a violation depends on the run so far (a requestId seen before), not a cause to shrink.
   */
  judgedForShrinking(exchange: JudgedExchange): readonly Judgement[] {
    return exchange.judgements.every((j) => j.violations.length === 0) ? exchange.judgements : this.judged(exchange);
  }

  /** How one request fared against the cause `key` of `rule`. */
  faredOf(exchange: Exchange, rule: string, key: string): Fared {
    const judgement = this.judged(exchange).find((j) => j.rule === rule);
    if (!judgement) return 'other';
    if (judgement.violations.some((v) => keyOf(rule, v, exchange) === key)) return 'fails';
    return judgement.violations.length === 0 && exchange.response ? 'passes' : 'other';
  }

  /** Why no further shrink request may go out, or undefined when one may. */
  refusal(spent: number): string | undefined {
    const { shrinkBudget: budget } = this.session;
    const { perCause, perRun } = this.limits;
    const run = budget.refusal();
    if (run) return run;
    if (budget.spent.requests >= perRun) return `the run's shrink budget of ${perRun} requests is spent`;
    if (spent >= perCause) return `the shrink budget of ${perCause} requests per failure is spent`;
    return undefined;
  }

  /**
   * Shrinks the cause `key` of `rule` from its first failing example: fast-check replays it from its seed and index,
   * each candidate sent to the target; then the failing and the nearest passing request are sent again.
   */
  async shrink<T>(
    target: ShrinkTarget<T>,
    rule: string,
    key: string,
    first: JudgedExchange,
    examples: Examples,
  ): Promise<MinimalExample> {
    if (examples.passing.length === 0) {
      return {
        outcome: 'skipped',
        reason: 'every example of the property failed it, whatever its values, so none tells what makes the difference',
        requests: 0,
        complete: false,
      };
    }
    const before = this.refusal(0);
    // Without a request to spare, what the examples share still narrows the cause down.
    if (before)
      return { outcome: 'skipped', reason: before, requests: 0, complete: false, ...this.inCommon(examples, []) };
    const example = first.probe.example!;
    const attempts = new Attempts(this, target, rule, key, example.property);
    let original: { value: T } | undefined;
    const details = await fc.check(
      fc.asyncProperty(target.arbitrary, async (value) => {
        // fast-check replays the example first, from its seed and index: it failed when it was sent.
        if (!original) {
          original = { value };
          return false;
        }
        return (await attempts.attempt(value, CONFIRMING)) !== 'fails';
      }),
      { seed: example.seed, path: String(example.index), numRuns: 1 },
    );
    if (attempts.thrown) throw attempts.thrown.error;
    return this.shrunk(first, original, details, attempts, examples);
  }

  /**
   * The minimal example of a shrink fast-check ran: the last failing candidate (else the example) and the passing one
   * nearest to it, both sent again to confirm them, and what the failing bodies share.
   */
  private async shrunk<T>(
    first: JudgedExchange,
    original: { value: T } | undefined,
    details: fc.RunDetails<[T]>,
    attempts: Attempts<T>,
    examples: Examples,
  ): Promise<MinimalExample> {
    const example = first.probe.example!;
    const { tried } = attempts;
    const lastFailing = tried.filter((t) => t.fared === 'fails').at(-1);
    const failing = lastFailing ?? { exchange: first, fared: 'fails' as const, value: original!.value };
    const failingBody = this.redacted(failing.exchange);
    const passing = nearest(
      failingBody,
      tried.filter((t) => t.fared === 'passes'),
      (exchange) => this.redacted(exchange),
    );
    const shrunk = attempts.stopped;
    attempts.stopped = undefined;
    // Sent again, the two must fare the same: else the failure hangs on the target's state, not on the difference.
    const confirmed = passing
      ? await confirm([failing, passing.tried], (value, reserve) => attempts.attempt(value, reserve))
      : undefined;
    return {
      outcome: 'shrunk',
      ...(shrunk ? { reason: shrunk } : {}),
      requests: tried.length,
      complete: shrunk === undefined,
      ...(details.counterexamplePath
        ? { replay: { property: example.property, seed: example.seed, path: details.counterexamplePath } }
        : {}),
      failing: { ...requestOf(failing.exchange, failingBody), curl: reproduction(this.session, failing.exchange) },
      ...(passing
        ? {
            passing: requestOf(passing.tried.exchange, passing.body),
            difference: differences(failingBody, passing.body),
          }
        : {}),
      ...(confirmed === undefined ? {} : { confirmed }),
      ...this.inCommon(examples, tried),
    };
  }

  /**
   * The field values every failing body (the examples', then the shrink's) shares with no passing one, and how many of
   * each they were drawn from.
   */
  inCommon(examples: Examples, tried: readonly Tried[]): Pick<MinimalExample, 'shared' | 'compared'> {
    const bodiesOf = (fared: Fared): unknown[] =>
      tried.filter((t) => t.fared === fared).map((t) => this.redacted(t.exchange));
    const failed = {
      count: examples.failing.length + tried.filter((t) => t.fared === 'fails').length,
      bodies: concat(examples.bodiesAt(examples.failing), bodiesOf('fails')),
    };
    const passed = {
      count: examples.passing.length + tried.filter((t) => t.fared === 'passes').length,
      bodies: concat(examples.bodiesAt(examples.passing), bodiesOf('passes')),
    };
    const shared = passed.count > 0 ? sharedAcross(failed.bodies, passed.bodies) : [];
    return shared.length > 0 ? { shared, compared: { failing: failed.count, passing: passed.count } } : {};
  }

  /** What the request sent, redacted: its JSON body, else its body text, else its query (a GET's generated value). */
  redacted(exchange: Exchange): unknown {
    return this.session.redactor.value(requestValue(exchange));
  }
}

/** The candidates one cause's shrink sent, each counted against both budgets, and why it stopped sending them. */
class Attempts<T> {
  readonly tried: (Tried & { readonly value: T })[] = [];
  /** Why no more candidates go out: a budget or the gate said no. */
  stopped: string | undefined;
  /** What sending a candidate threw, thrown again once fast-check is done. */
  thrown: { error: unknown } | undefined;

  constructor(
    readonly shrinker: CauseShrinker,
    readonly target: ShrinkTarget<T>,
    readonly rule: string,
    readonly key: string,
    readonly property: string,
  ) {}

  /** Sends one candidate, counted against both budgets; undefined when a budget or the gate says no more. */
  async attempt(value: T, reserve: number): Promise<Fared | undefined> {
    this.stopped ??= this.shrinker.refusal(this.tried.length + reserve);
    if (this.stopped || this.thrown) return undefined;
    this.shrinker.session.shrinkBudget.spend('requests');
    try {
      const exchange = await this.target.send(value, { evidence: false, shrink: { property: this.property } });
      if (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted')
        this.stopped = `the run's request gate refused it (${exchange.failure.code})`;
      const fared = this.shrinker.faredOf(exchange, this.rule, this.key);
      this.tried.push({ exchange, fared, value });
      return fared;
    } catch (error) {
      this.thrown = { error };
      return undefined;
    }
  }
}

/** What a request carried that its example was drawn as: its JSON body, else its body text, else its query. */
export function requestValue(exchange: Exchange): unknown {
  const { json, body, query } = exchange.request;
  return json ?? body ?? query;
}

/** Each part in turn. */
function* concat<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

/**
 * As `sharedValues`, body by body: the leaf values the first failing body has that every other failing body has too and
 * no passing one has.
 */
function sharedAcross(failing: Iterable<unknown>, passing: Iterable<unknown>): SharedValue[] {
  let candidates: Map<string, string> | undefined;
  for (const body of failing) {
    const here = leaves(body);
    if (!candidates) candidates = here;
    else for (const [path, text] of candidates) if (here.get(path) !== text) candidates.delete(path);
    if (candidates.size === 0) return [];
  }
  if (!candidates) return [];
  for (const body of passing) {
    const here = leaves(body);
    for (const [path, text] of candidates) if (here.get(path) === text) candidates.delete(path);
    if (candidates.size === 0) return [];
  }
  return [...candidates].map(([path, text]) => ({ path, value: JSON.parse(text) as unknown }));
}

/** The cause a violation of an exchange belongs to (the key reports group findings by). */
export function keyOf(rule: string, violation: Violation, exchange: Exchange): string {
  return causeKey(rule, evidenceOf(violation, exchange.failure?.code, exchange.response?.status));
}

/** What a violation shows of its cause, as cause keys read it. */
export function evidenceOf(
  violation: Pick<Violation, 'path' | 'actual'>,
  failure: string | undefined,
  status: number | undefined,
): KindEvidence {
  return {
    path: violation.path,
    ...(violation.actual === undefined ? {} : { actual: withoutBigInts(violation.actual) }),
    ...(failure ? { failure } : {}),
    ...(status === undefined ? {} : { status }),
  };
}

/**
 * The passing request whose body differs from the failing one in the fewest fields; the latest of equals (fast-check
 * tries smaller ones later).
 */
function nearest<E extends Tried>(
  failingBody: unknown,
  passing: readonly E[],
  redact: (exchange: Exchange) => unknown,
): { tried: E; body: unknown } | undefined {
  let best: { tried: E; body: unknown; distance: number } | undefined;
  for (const tried of passing) {
    const body = redact(tried.exchange);
    const distance = differences(failingBody, body).length;
    if (!best || distance <= best.distance) best = { tried, body, distance };
  }
  return best && { tried: best.tried, body: best.body };
}

/**
 * Sends the failing and the passing request again, in turn: true when each fares as before, false when one does not,
 * undefined when the budget did not allow both.
 */
async function confirm<T>(
  pair: readonly [Tried & { value: T }, Tried & { value: T }],
  attempt: (value: T, reserve: number) => Promise<Fared | undefined>,
): Promise<boolean | undefined> {
  for (const { value, fared } of pair) {
    const again = await attempt(value, 0);
    if (again === undefined) return undefined;
    if (again !== fared) return false;
  }
  return true;
}

/** A shrink request as the minimal example shows it: its body and its status. */
function requestOf(exchange: Exchange, body: unknown): ShrinkRequest {
  return { body, status: exchange.response?.status ?? exchange.failure?.code ?? 'no answer' };
}
