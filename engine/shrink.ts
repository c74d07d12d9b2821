import { causeKey } from '../evidence/cause-key.ts';
import type { Finding } from '../evidence/finding.ts';
import { firstKept, type Ledger } from '../evidence/ledger.ts';
import type { MinimalExample } from '../evidence/minimal-example.ts';
import type { Rule } from '../rule-model/rule.ts';
import { DEFAULTS } from '../settings/defaults.ts';
import { propertyExamples } from './property-examples.ts';
import { CauseShrinker, evidenceOf, keyOf, requestValue, type ShrinkSession } from './shrink-cause.ts';
import type { JudgedExchange, ShrinkTarget } from './suite-types.ts';

/**
 * What a suite's shrinker works with: the run's session (its shrink budget knows what `--max-requests` leaves), the
 * suite's ledger (whose findings get their minimal example), the selected rules.
 */
export interface ShrinkerSetup {
  readonly session: ShrinkSession;
  readonly ledger: Ledger;
  readonly rules: readonly Rule[];
  /**
   * Shrink requests per failure and per run; DEFAULTS.shrinkRequestsPerCause and DEFAULTS.shrinkRequestsPerRun unless
   * given.
   */
  readonly limits?: { readonly perCause: number; readonly perRun: number };
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
  const shrinker = new CauseShrinker(
    setup.session,
    setup.rules,
    setup.limits ?? { perCause: DEFAULTS.shrinkRequestsPerCause, perRun: DEFAULTS.shrinkRequestsPerRun },
  );
  /** The causes shrunk already, by operation: each is shrunk once, whichever of the suite's properties fails it. */
  const done = new Set<string>();
  return <T>(target: ShrinkTarget<T>): PropertyShrink<T> => new ExamplesShrink(target, shrinker, setup.ledger, done);
}

/** The `PropertyShrink` of one property: its causes of failure, and the examples that passed each rule. */
class ExamplesShrink<T> implements PropertyShrink<T> {
  private readonly causes = new Map<string, Cause>();
  /** Per rule, the indices of the examples it judged with no violation. */
  private readonly passing = new Map<string, number[]>();
  /**
   * The request values of examples whose request is not the value drawn (most are: then it is drawn again when
   * needed).
   */
  private readonly sentValues = new Map<number, unknown>();
  private drawn: { property: string; seed: number } | undefined;

  constructor(
    readonly target: ShrinkTarget<T>,
    readonly shrinker: CauseShrinker,
    readonly ledger: Ledger,
    readonly done: Set<string>,
  ) {}

  add(exchange: JudgedExchange, value: T): void {
    const example = exchange.probe.example;
    if (!example) return;
    const { index } = example;
    this.drawn ??= { property: example.property, seed: example.seed };
    if (requestValue(exchange) !== value) this.sentValues.set(index, requestValue(exchange));
    /** The causes this example fails, in the order its violations show them. */
    const here = new Map<string, string>();
    for (const { rule, violations } of this.shrinker.judgedForShrinking(exchange)) {
      if (violations.length === 0 && exchange.response) {
        const indices = this.passing.get(rule) ?? [];
        indices.push(index);
        this.passing.set(rule, indices);
      }
      for (const violation of violations) {
        const key = keyOf(rule, violation, exchange);
        if (!here.has(key)) here.set(key, rule);
      }
    }
    let order = 0;
    for (const [key, rule] of here) {
      const cause = this.causes.get(key);
      if (!cause) this.causes.set(key, { rule, first: exchange, firstIndex: index, order, failing: [index] });
      else {
        cause.failing.push(index);
        if (index < cause.firstIndex) Object.assign(cause, { first: exchange, firstIndex: index, order });
      }
      order += 1;
    }
  }

  held(): number {
    return this.causes.size;
  }

  async shrink(): Promise<void> {
    const ordered = [...this.causes].sort(([, a], [, b]) => a.firstIndex - b.firstIndex || a.order - b.order);
    for (const [key, cause] of ordered) {
      const { rule, first } = cause;
      const once = `${first.operation}\u0000${key}`;
      const put = findingSlot(this.ledger, first, rule, key);
      // A cause whose finding was not kept has nowhere to show its minimal example: no request is spent on it.
      if (this.done.has(once) || !put) continue;
      this.done.add(once);
      const failing = [...cause.failing].sort((a, b) => a - b);
      const passed = [...(this.passing.get(rule) ?? [])].sort((a, b) => a - b);
      const bodiesAt = (indices: readonly number[]) => this.bodiesAt(indices);
      put(await this.shrinker.shrink(this.target, rule, key, first, { failing, passing: passed, bodiesAt }));
    }
  }

  /** The redacted request bodies of the examples at `indices` (ascending), drawn again from the property's seed. */
  private *bodiesAt(indices: readonly number[]): Generator<unknown> {
    if (!this.drawn || indices.length === 0) return;
    const { sentValues } = this;
    let at = 0;
    for (const { value, example } of propertyExamples(
      this.drawn.property,
      this.target.arbitrary,
      this.drawn.seed,
      indices.at(-1)! + 1,
    )) {
      if (example.index !== indices[at]) continue;
      yield this.shrinker.session.redactor.value(sentValues.has(example.index) ? sentValues.get(example.index) : value);
      at += 1;
    }
  }
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
