import { withoutBigInts } from '../core/json-text.ts';
import fc from 'fast-check';
import { causeKey, type KindEvidence } from '../evidence/cause-key.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { differences, leaves, type SharedValue } from '../evidence/difference.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Finding } from '../evidence/finding.ts';
import { judge, type Judgement } from '../rule-model/judge.ts';
import { firstKept, type Ledger } from '../evidence/ledger.ts';
import type { MinimalExample, ShrinkRequest } from '../evidence/minimal-example.ts';
import type { Rule, Violation } from '../rule-model/rule.ts';
import { reproduction } from './record.ts';
import type { Session } from './session.ts';
import { propertyExamples } from './property-examples.ts';
import type { JudgedExchange, ShrinkTarget } from './suite-types.ts';

/**
 * What a suite's shrinker works with: the run's session (its shrink budget knows what `--max-requests` leaves), the
 * suite's ledger (whose findings get their minimal example), the selected rules.
 */
export interface ShrinkerSetup {
  readonly session: Pick<
    Session,
    'config' | 'specs' | 'gate' | 'redactor' | 'validators' | 'memories' | 'operation' | 'shrinkBudget'
  >;
  readonly ledger: Ledger;
  readonly rules: readonly Rule[];
  /**
   * Shrink requests per failure and per run; DEFAULTS.shrinkRequestsPerCause and DEFAULTS.shrinkRequestsPerRun unless
   * given.
   */
  readonly limits?: { readonly perCause: number; readonly perRun: number };
}

/** Requests of a failure's budget kept back while shrinking, to send the failing and the passing request again. */
const CONFIRMING = 2;

/** How one request of a shrink fared against the failure being shrunk. */
type Fared = 'fails' | 'passes' | 'other';

interface Tried {
  readonly exchange: Exchange;
  readonly fared: Fared;
}

/**
 * One cause of failure among a property's examples: the rule, its first failing example (the lowest index) and every
 * failing index.
 */
interface Cause {
  readonly rule: string;
  first: JudgedExchange;
  firstIndex: number;
  /**
   * Its place among the causes of its first example's violations: causes are shrunk in the order the examples show
   * them.
   */
  order: number;
  readonly failing: number[];
}

/**
 * A property's examples as they come back, kept only as what shrinking their failures needs: how each fared, by index,
 * and the first failing exchange of each cause; never every exchange, so that what a property holds does not grow with
 * `--runs` beyond a number per example.
 */
export interface PropertyShrink<T> {
  /** Notes how one example fared: the exchange its probe returned, as judged, and the value it was drawn as. */
  add(exchange: JudgedExchange, value: T): void;
  /** The exchanges held: one per cause of failure, however many examples were added. */
  held(): number;
  /** Shrinks each cause of failure among the examples added (see `createShrinker`). */
  shrink(): Promise<void>;
}

/**
 * Creates the shrinker of a suite: for each property, a `PropertyShrink` that the property's examples are added to as
 * they come back. Then, for each cause (rule, path, kind of wrong value) among their failures, fast-check replays the
 * first failing example from its seed and index and shrinks it with the arbitrary's own shrinker, each candidate sent
 * to the target through the group's `send` (so through the run's request gate, pacers and `--allow`), within a budget
 * per cause and per run (with `--max-requests`, no more than the plan leaves: the session's `ShrinkBudget`). The result
 * is attached to the cause's kept finding.
 */
export function createShrinker(setup: ShrinkerSetup): <T>(target: ShrinkTarget<T>) => PropertyShrink<T> {
  const { session, ledger, rules } = setup;
  const { shrinkBudget: budget } = session;
  const { perCause, perRun } = setup.limits ?? {
    perCause: DEFAULTS.shrinkRequestsPerCause,
    perRun: DEFAULTS.shrinkRequestsPerRun,
  };
  const done = new Set<string>();

  const judged = (exchange: Exchange): ReturnType<typeof judge> =>
    judge(
      exchange,
      rules,
      {
        operation: session.operation(exchange.operationId),
        specs: session.specs,
        validators: session.validators,
        again: true,
      },
      session.memories,
    );
  /**
   * How an example's exchange fares, rule by rule: judged again only when a rule found a violation in it as it was
   * recorded (judging every example twice was a tenth of what a run's worker allocated), since a second look can differ
   * from the first only where a violation depends on the run so far (a requestId seen before), not a cause to shrink.
   */
  const judgedForShrinking = (exchange: JudgedExchange): readonly Judgement[] =>
    exchange.judgements.every((j) => j.violations.length === 0) ? exchange.judgements : judged(exchange);
  const faredOf = (exchange: Exchange, rule: string, key: string): Fared => {
    const judgement = judged(exchange).find((j) => j.rule === rule);
    if (!judgement) return 'other';
    if (judgement.violations.some((v) => keyOf(rule, v, exchange) === key)) return 'fails';
    return judgement.violations.length === 0 && exchange.response ? 'passes' : 'other';
  };
  /** Why no further shrink request may go out, or undefined when one may. */
  const refusal = (spent: number): string | undefined => {
    const run = budget.refusal();
    if (run) return run;
    if (budget.spent.requests >= perRun) return `the run's shrink budget of ${perRun} requests is spent`;
    if (spent >= perCause) return `the shrink budget of ${perCause} requests per failure is spent`;
    return undefined;
  };

  return function property<T>(target: ShrinkTarget<T>): PropertyShrink<T> {
    const causes = new Map<string, Cause>();
    /** Per rule, the indices of the examples it judged with no violation. */
    const passing = new Map<string, number[]>();
    /**
     * The request values of examples whose request is not the value drawn (most are: then it is drawn again when
     * needed).
     */
    const sentValues = new Map<number, unknown>();
    let drawn: { property: string; seed: number } | undefined;

    /** The redacted request bodies of the examples at `indices` (ascending), drawn again from the property's seed. */
    function* bodiesAt(indices: readonly number[]): Generator<unknown> {
      if (!drawn || indices.length === 0) return;
      let at = 0;
      for (const { value, example } of propertyExamples(
        drawn.property,
        target.arbitrary,
        drawn.seed,
        indices.at(-1)! + 1,
      )) {
        if (example.index !== indices[at]) continue;
        yield session.redactor.value(sentValues.has(example.index) ? sentValues.get(example.index) : value);
        at += 1;
      }
    }

    return {
      add(exchange, value) {
        const example = exchange.probe.example;
        if (!example) return;
        const { index } = example;
        drawn ??= { property: example.property, seed: example.seed };
        if (requestValue(exchange) !== value) sentValues.set(index, requestValue(exchange));
        /** The causes this example fails, in the order its violations show them. */
        const here = new Map<string, string>();
        for (const { rule, violations } of judgedForShrinking(exchange)) {
          if (violations.length === 0 && exchange.response) {
            const indices = passing.get(rule) ?? [];
            indices.push(index);
            passing.set(rule, indices);
          }
          for (const violation of violations) {
            const key = keyOf(rule, violation, exchange);
            if (!here.has(key)) here.set(key, rule);
          }
        }
        let order = 0;
        for (const [key, rule] of here) {
          const cause = causes.get(key);
          if (!cause) causes.set(key, { rule, first: exchange, firstIndex: index, order, failing: [index] });
          else {
            cause.failing.push(index);
            if (index < cause.firstIndex) Object.assign(cause, { first: exchange, firstIndex: index, order });
          }
          order += 1;
        }
      },
      held: () => causes.size,
      async shrink() {
        const ordered = [...causes].sort(([, a], [, b]) => a.firstIndex - b.firstIndex || a.order - b.order);
        for (const [key, cause] of ordered) {
          const { rule, first } = cause;
          const once = `${first.operation}\u0000${key}`;
          const put = findingSlot(ledger, first, rule, key);
          // A cause whose finding was not kept has nowhere to show its minimal example: no request is spent on it.
          if (done.has(once) || !put) continue;
          done.add(once);
          const failing = [...cause.failing].sort((a, b) => a - b);
          const passed = [...(passing.get(rule) ?? [])].sort((a, b) => a - b);
          put(await shrinkCause(target, rule, key, first, { failing, passing: passed, bodiesAt }));
        }
      },
    };
  };

  async function shrinkCause<T>(
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
    const before = refusal(0);
    // Without a request to spare, what the examples share still narrows the cause down.
    if (before) return { outcome: 'skipped', reason: before, requests: 0, complete: false, ...inCommon(examples, []) };
    const example = first.probe.example!;
    const tried: (Tried & { readonly value: T })[] = [];
    let original: { value: T } | undefined;
    let stopped: string | undefined;
    let thrown: { error: unknown } | undefined;
    /** Sends one candidate, counted against both budgets; undefined when a budget or the gate says no more. */
    const attempt = async (value: T, reserve: number): Promise<Fared | undefined> => {
      stopped ??= refusal(tried.length + reserve);
      if (stopped || thrown) return undefined;
      budget.spend('requests');
      try {
        const exchange = await target.send(value, { evidence: false, shrink: { property: example.property } });
        if (exchange.failure?.code === 'budget' || exchange.failure?.code === 'interrupted')
          stopped = `the run's request gate refused it (${exchange.failure.code})`;
        const fared = faredOf(exchange, rule, key);
        tried.push({ exchange, fared, value });
        return fared;
      } catch (error) {
        thrown = { error };
        return undefined;
      }
    };
    const details = await fc.check(
      fc.asyncProperty(target.arbitrary, async (value) => {
        // fast-check replays the example first, from its seed and index: it failed when it was sent.
        if (!original) {
          original = { value };
          return false;
        }
        return (await attempt(value, CONFIRMING)) !== 'fails';
      }),
      { seed: example.seed, path: String(example.index), numRuns: 1 },
    );
    if (thrown) throw thrown.error;
    const lastFailing = tried.filter((t) => t.fared === 'fails').at(-1);
    const failing = lastFailing ?? { exchange: first, fared: 'fails' as const, value: original!.value };
    const failingBody = redacted(failing.exchange);
    const passing = nearest(
      failingBody,
      tried.filter((t) => t.fared === 'passes'),
      redacted,
    );
    const shrunk = stopped;
    stopped = undefined;
    // Sent again, the two must fare the same: else the failure hangs on the target's state, not on the difference.
    const confirmed = passing ? await confirm([failing, passing.tried], attempt) : undefined;
    return {
      outcome: 'shrunk',
      ...(shrunk ? { reason: shrunk } : {}),
      requests: tried.length,
      complete: shrunk === undefined,
      ...(details.counterexamplePath
        ? { replay: { property: example.property, seed: example.seed, path: details.counterexamplePath } }
        : {}),
      failing: { ...requestOf(failing.exchange, failingBody), curl: reproduction(session, failing.exchange) },
      ...(passing
        ? {
            passing: requestOf(passing.tried.exchange, passing.body),
            difference: differences(failingBody, passing.body),
          }
        : {}),
      ...(confirmed === undefined ? {} : { confirmed }),
      ...inCommon(examples, tried),
    };
  }

  /**
   * The field values every failing body (the examples', then the shrink's) shares with no passing one, and how many of
   * each they were drawn from.
   */
  function inCommon(examples: Examples, tried: readonly Tried[]): Pick<MinimalExample, 'shared' | 'compared'> {
    const bodiesOf = (fared: Fared): unknown[] =>
      tried.filter((t) => t.fared === fared).map((t) => redacted(t.exchange));
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
  function redacted(exchange: Exchange): unknown {
    return session.redactor.value(requestValue(exchange));
  }
}

/** A cause's examples, by index: those that failed it and those that passed its rule, and their bodies drawn again. */
interface Examples {
  readonly failing: readonly number[];
  readonly passing: readonly number[];
  bodiesAt(indices: readonly number[]): Iterable<unknown>;
}

/** What a request carried that its example was drawn as: its JSON body, else its body text, else its query. */
function requestValue(exchange: Exchange): unknown {
  const { json, body, query } = exchange.request;
  return json ?? body ?? query;
}

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
function keyOf(rule: string, violation: Violation, exchange: Exchange): string {
  return causeKey(rule, evidenceOf(violation, exchange.failure?.code, exchange.response?.status));
}

function evidenceOf(
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

function requestOf(exchange: Exchange, body: unknown): ShrinkRequest {
  return { body, status: exchange.response?.status ?? exchange.failure?.code ?? 'no answer' };
}

/**
 * Where the minimal example goes: the cause's finding that the failing example made, by its reference, or else (the
 * ledger did not keep it) the cause's first kept finding without one; undefined when none is kept.
 */
function findingSlot(
  ledger: Ledger,
  first: JudgedExchange,
  rule: string,
  key: string,
): ((minimal: MinimalExample) => void) | undefined {
  const sameCause = (f: Finding): boolean =>
    causeKey(rule, evidenceOf(f, f.evidence.failure?.code, f.evidence.response?.status)) === key;
  const kept =
    first.findings.find((own) => own.rule === rule && sameCause(own.current())) ??
    firstKept(ledger, first.operation, rule, (f) => sameCause(f) && f.minimal === undefined);
  return kept && ((minimal) => kept.amend((finding) => ({ ...finding, minimal })));
}
