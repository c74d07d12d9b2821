import type { RunConfig } from '../settings/config.ts';
import type { RuleResult } from '../evidence/finding.ts';
import type { Rule, SelectedOperation } from '../rule-model/rule.ts';
import type { Specs } from '../spec/spec.ts';
import { createLedger, EVERY_PART, expectSequences, neighbourhoodNotSent, type Ledger } from '../evidence/ledger.ts';
import { countCredentialUse, createCredentialTally, type CredentialTally } from '../evidence/credential-tally.ts';
import { runPathParameters } from '../apis/index.ts';
import { RULES } from '../rules/index.ts';
import type { CreatedResource, SuiteReport } from '../run/run-report-types.ts';
import { groupClass, groupSkip, selectedGroups, shardSuites, type GroupSkip } from './plan.ts';
import { writeRecord } from './write-record.ts';
import type { JudgedExchange, ProbeGroup, ProbeRequest, SuiteContext, SuiteDefinition } from './suite-types.ts';
import type { SendOptions } from '../transport/http-client.ts';
import { recordExchange, reproduction } from './record.ts';
import { amendFinding } from './amend-finding.ts';
import { createShrinker } from './shrink.ts';
import { propertySeed } from './seeds.ts';
import { forEachExample, propertyExamples } from './property-examples.ts';
import { createSession, type Session } from './session.ts';
import { verdict } from './verdict.ts';
import { knownFailureReason } from '../run/known-failures.ts';
import { runSchedule, type ScheduledSuite } from './group-schedule.ts';
import type { PreparedRun } from '../run/run-settings.ts';
import type { RunLink } from '../run/run-channel.ts';
import type { Redactor } from '../secrets/redaction.ts';

/** What the suites are registered with: the settings their tests are declared from, and how the run is prepared. */
export interface SuitesSource {
  /** The settings known when the tests are declared: the shard, the rules, the time the run may take. */
  readonly config: RunConfig;
  /** Both specs: which rules concern an operation comes from them. */
  readonly specs: Specs;
  /** The run's link to the command's thread (interrupts, progress); none in a team's own vitest run. */
  readonly channel?: RunLink;
  /** The thread's one redactor, on the run's registry of secrets, which the preflight used; the session's. */
  readonly redactor?: Redactor;
  /** Prepares the run once, before the first group sends; `close` ends what preparing it started. */
  prepare(): Promise<{ readonly run: PreparedRun; close?(): Promise<void> }>;
}

/** A run whose groups were started: each suite's state, and when the last group is through. */
export interface StartedRun {
  readonly states: readonly SuiteState[];
  readonly finished: Promise<void>;
}

/**
 * Starts the run's groups of these suite definitions (of the shard's part) at once: a failure to start fails every
 * suite's tests with it, so that none waits for a state that never settles.
 */
export function startRun(source: SuitesSource, run: PreparedRun, definitions: readonly SuiteDefinition[]): StartedRun {
  const states = suiteStates(definitions, run.config.shard);
  const finished = startGroups(source, run, states).then(
    (started) => started.finished,
    (error: unknown) => {
      for (const state of states) {
        state.failure ??= error;
        state.settle();
      }
      throw error;
    },
  );
  // Heard once the suites are judged; until then a failure must not end the thread as an unhandled rejection.
  finished.catch(() => undefined);
  return { states, finished };
}

/** What one suite gathers while the run's groups send: its verdicts and its report are made of it. */
export interface SuiteState {
  readonly definition: SuiteDefinition;
  readonly ledger: Ledger;
  readonly credentials: CredentialTally;
  readonly skips: GroupSkip[];
  readonly created: CreatedResource[];
  readonly incidents: string[];
  readonly operationKeys: Map<string, string>;
  /** What its groups handed to the run's other suites, by topic (`SuiteContext.share`). */
  readonly shared: Map<string, unknown[]>;
  requests: number;
  rateLimited: number;
  /** The first error one of its groups threw: its tests fail with it. */
  failure?: unknown;
  /** Settles once none of its groups runs or will run: its tests may then decide. */
  readonly done: Promise<void>;
  settle(): void;
}

/** Each suite's state for a run, of the shard's part with `--shard`: what its groups gather and its tests read. */
export function suiteStates(definitions: readonly SuiteDefinition[], shard: RunConfig['shard']): SuiteState[] {
  return shardSuites(definitions, shard).map(suiteState);
}

/**
 * Builds the run's one session (one request gate, one pair of pacers, one secret and requestId ledger) and starts
 * every selected probe group of the suites under it, concurrently (see `runSchedule`); `finished` settles after the
 * last group, the session closed. Each suite's state settles as soon as its own groups are through.
 */
export async function startGroups(
  source: SuitesSource,
  run: PreparedRun,
  states: readonly SuiteState[],
): Promise<{ readonly finished: Promise<void> }> {
  const spent = run.preflight?.requests ?? 0;
  // Shrinking spends only what --max-requests leaves beyond the plan and the preflight's GETs.
  const session = await createSession(run.config, source.specs, {
    ...(source.channel ? { channel: source.channel } : {}),
    ...(source.redactor ? { redactor: source.redactor } : {}),
    spent,
    planned: run.plan.total + spent,
    putBacks: run.plan.putBacks,
    // The preflight's rate carries over: with --max-rps, the run's first request keeps its distance from the last GET.
    ...(run.preflight?.nextStart === undefined ? {} : { notBefore: run.preflight.nextStart }),
  });
  // What the preflight's confirming writes created is listed by the suite of their operation, as its own creates are.
  for (const resource of run.preflight?.created ?? []) {
    const state = states.find((one) => one.definition.operations.includes(resource.operation)) ?? states[0];
    state?.created.push(resource);
    if (state) session.announceCreated(state.definition.name, resource);
  }
  return { finished: runEverySuite(session, states).finally(() => session.close()) };
}

/** What a suite reports of its run: coverage, what it created, incidents, requests, groups skipped, credentials. */
export function suiteReport(state: SuiteState): SuiteReport {
  return {
    suite: state.definition.name,
    coverage: state.ledger.coverage,
    created: state.created,
    incidents: state.incidents,
    requests: state.requests,
    rateLimited: state.rateLimited,
    skippedGroups: state.skips.map(({ group, reason }) => ({ group, reason })),
    credentials: state.credentials,
  };
}

/**
 * A rule's verdict on one of a suite's operations, from its tally, and the baseline's reason when the baseline
 * accepts its failure.
 */
export function ruleVerdict(
  run: PreparedRun,
  state: SuiteState,
  rule: Rule,
  operation: SelectedOperation,
): { readonly key: string; readonly result: RuleResult; readonly known?: string } {
  const key = state.operationKeys.get(operation.operationId) ?? operation.operationId;
  const result = verdict(run.config, state.ledger, state.skips, rule, { ...operation, key });
  const known = result.outcome === 'failed' ? knownFailureReason(run.knownFailures, rule.id, key) : undefined;
  return { key, result, ...(known === undefined ? {} : { known }) };
}

function suiteState(definition: SuiteDefinition): SuiteState {
  let settle = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return {
    definition,
    ledger: createLedger(),
    credentials: createCredentialTally(),
    skips: [],
    created: [],
    incidents: [],
    operationKeys: new Map(),
    shared: new Map(),
    requests: 0,
    rateLimited: 0,
    done,
    settle,
  };
}

/** A sequential or chained suite's requests are a lane of the gate (see `SuiteDefinition.chained`). */
function isLane(definition: SuiteDefinition): boolean {
  return definition.sequential === true || definition.chained === true;
}

/**
 * Runs the selected groups of every suite, concurrently under the session's gate; settles each suite's state as soon as
 * it is through, with its failure if any.
 */
async function runEverySuite(session: Session, states: readonly SuiteState[]): Promise<void> {
  const interrupted = (state: SuiteState): void => {
    if (session.gate.interrupted.aborted) {
      state.skips.push({
        group: 'every group',
        operations: state.definition.operations,
        feeds: RULES.map((rule) => rule.id),
        reason: 'the run was interrupted',
        byChoice: false,
      });
    }
  };
  const byName = new Map(states.map((state) => [state.definition.name, state]));
  for (const state of states) if (isLane(state.definition)) session.gate.openLane(state.definition.name);
  try {
    await runSchedule(
      states.map((state) => scheduledSuite(session, state, (name) => byName.get(name))),
      {
        stopped: () => session.gate.interrupted.aborted,
        onDone(name, error) {
          session.gate.closeLane(name);
          const state = byName.get(name);
          if (!state) return;
          if (error !== undefined) state.failure = error;
          interrupted(state);
          state.settle();
        },
      },
    );
  } catch (error) {
    // Not a group's error (those are their suite's): the run itself broke, and every suite's tests fail with it.
    for (const state of states) state.failure ??= error;
  } finally {
    for (const state of states) {
      session.gate.closeLane(state.definition.name);
      state.settle();
    }
  }
}

/**
 * A suite's groups that run with these settings, each with its context; the others are recorded as skipped with their
 * reason.
 */
function scheduledSuite(
  s: Session,
  state: SuiteState,
  suiteNamed: (name: string) => SuiteState | undefined,
): ScheduledSuite {
  const { definition, ledger, credentials, skips, created, incidents } = state;
  const { config } = s;
  const { name } = definition;
  for (const id of definition.operations) state.operationKeys.set(id, s.operation(id).key);
  const rules = RULES.filter((rule) => config.rules.includes(rule.id));
  const pathParameters = runPathParameters(config);
  // Each exchange is judged as it is recorded; `send` returns it with its judgements and the findings it made.
  const clients = s.clients(
    (exchange): JudgedExchange => {
      if (exchange.failure?.code !== 'budget' && exchange.failure?.code !== 'interrupted') state.requests += 1;
      const judged = recordExchange(s, ledger, rules, exchange);
      countCredentialUse(credentials, exchange);
      const write = writeRecord(exchange);
      if (write) {
        created.push(write);
        s.announceCreated(name, write);
      }
      return { ...exchange, ...judged };
    },
    () => {
      state.rateLimited += 1;
      state.requests += 1;
    },
  );
  const shrink = createShrinker({ session: s, ledger, rules });
  /** The client and options of a group's request, refused where the run does not allow its operation's class. */
  const sendOptions = (group: ProbeGroup, operationId: string, request: ProbeRequest) => {
    const operation = s.operation(operationId);
    const client = clients[operation.api];
    if (!client) throw new Error(`${operation.api} API is not configured; the group should have been skipped`);
    if (!config.allow.includes(operation.klass))
      throw new Error(
        `${group.name} sent to ${operationId} (class ${operation.klass}), which --allow does not allow; ` +
          'the group should have been skipped',
      );
    // A chained suite is a lane of the gate: its steps go first and find a slot kept for them, so that its chains,
    // not the queue, set its time.
    const options: SendOptions = {
      ...request,
      operation,
      params: { ...pathParameters, ...request.params },
      ...(isLane(definition) ? { lane: name } : {}),
    };
    return { client, options };
  };
  const contextOf = (group: ProbeGroup): SuiteContext => ({
    config,
    shrinkBudget: s.shrinkBudget,
    send(operationId, request) {
      const { client, options } = sendOptions(group, operationId, request);
      return client.send(options);
    },
    async sendTogether(requests) {
      const sent = requests.map(({ operationId, request }) => sendOptions(group, operationId, request));
      const client = sent[0]?.client;
      if (!client || sent.some((one) => one.client !== client)) throw new Error('requests sent at once go to one API');
      return client.sendTogether(sent.map((one) => one.options));
    },
    record(exchange) {
      const client = clients[exchange.api];
      if (!client) throw new Error(`${exchange.api} API is not configured`);
      return client.record(exchange);
    },
    examples(property, arbitrary, cap = Infinity) {
      return [
        ...propertyExamples(
          `${name}/${property}`,
          arbitrary,
          propertySeed(config.seed, `${name}/${property}`),
          Math.min(cap, config.runs),
        ),
      ];
    },
    async eachExample(property, arbitrary, probe, options = {}) {
      const examples = propertyExamples(
        `${name}/${property}`,
        arbitrary,
        propertySeed(config.seed, `${name}/${property}`),
        Math.min(options.cap ?? Infinity, config.runs),
      );
      const shrinking = options.shrink ? shrink({ arbitrary, send: options.shrink }) : undefined;
      await forEachExample(examples, options.inOrder ? 1 : config.concurrency, probe, (exchange, { value }) => {
        if (exchange) shrinking?.add(exchange, value);
      });
      await shrinking?.shrink();
    },
    openFields: (operationId) => s.operation(operationId).openFields,
    operation: (operationId) => s.operation(operationId),
    listedMethods(operationId) {
      const { api, path } = s.operation(operationId);
      return s.specs.operations.filter((one) => one.api === api && one.path === path).map((one) => one.method);
    },
    notSent: (operationId, part, reason) => neighbourhoodNotSent(ledger, s.operation(operationId).key, part, reason),
    unable(reason, which = {}) {
      // When a group it runs after was left out by the user's choice, that choice is why.
      const cause = skips.find((skip) => skip.byChoice && group.after?.includes(skip.group));
      const why = cause ? `${reason}, because ${cause.group} did not run: ${cause.reason}` : reason;
      const byChoice = cause !== undefined || which.byChoice === true;
      if (group.sequences && !which.operations && !which.feeds)
        for (const id of group.operations) expectSequences(ledger, s.operation(id).key, why);
      if (group.neighbourhood)
        for (const id of which.operations ?? group.operations) groupNotSent(ledger, s.operation(id).key, why);
      skips.push({
        group: group.name,
        operations: which.operations ?? group.operations,
        ...((which.feeds ?? group.feeds) ? { feeds: which.feeds ?? group.feeds } : {}),
        reason: why,
        byChoice,
      });
    },
    incident: (message) => incidents.push(message),
    share(topic, value) {
      const values = state.shared.get(topic) ?? [];
      values.push(value);
      state.shared.set(topic, values);
    },
    async sharedBy(suite, topic) {
      const other = suiteNamed(suite);
      if (!other || other === state) return { values: [] };
      await other.done;
      const values = [...(other.shared.get(topic) ?? [])];
      const left = other.skips.find((skip) => skip.byChoice);
      return values.length === 0 && left ? { values, choice: `${left.group} did not run: ${left.reason}` } : { values };
    },
    evidence: (exchange) => ({
      request: `${exchange.request.method} ${s.redactor.text(exchange.request.url)}`,
      curl: reproduction(s, exchange),
      redact: (value) => (typeof value === 'string' ? s.redactor.text(value) : s.redactor.value(value)),
    }),
    amendFinding: (exchange, rule, amend) => amendFinding(ledger, exchange, rule, amend),
  });
  const selected = selectedGroups(config, definition, (id) => s.operation(id));
  const runnable = definition.groups.filter((group) => {
    const skip = groupSkip(config, group, (id) => s.operation(id), selected);
    if (skip) skips.push(skip);
    if (group.sequences) for (const id of group.operations) expectSequences(ledger, s.operation(id).key, skip?.reason);
    if (group.neighbourhood && skip)
      for (const id of group.operations) groupNotSent(ledger, s.operation(id).key, skip.reason);
    return !skip;
  });
  const [first] = definition.operations;
  return {
    name,
    api: first === undefined ? name : s.operation(first).api,
    sequential: definition.sequential === true,
    groups: runnable.map((group) => ({
      name: group.name,
      after: runnableAfter(group, definition.groups, new Set(runnable.map((one) => one.name))),
      disruptive: groupClass(group, (id) => s.operation(id)) === 'disruptive',
      run: () => group.run(contextOf(group)),
    })),
  };
}

/**
 * The groups that run which `group` waits for: a group it names that does not run (skipped with these settings) stands
 * for the groups that one names, so that leaving a group out never lets its followers overtake what it followed.
 */
export function runnableAfter(group: ProbeGroup, groups: readonly ProbeGroup[], runs: ReadonlySet<string>): string[] {
  const byName = new Map(groups.map((one) => [one.name, one]));
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    if (runs.has(name)) found.add(name);
    else for (const before of byName.get(name)?.after ?? []) visit(before);
  };
  for (const name of group.after ?? []) visit(name);
  return [...found];
}

/** Notes that none of the neighbourhood's probes of a group went to an operation, and why. */
function groupNotSent(ledger: Ledger, operation: string, reason: string): void {
  neighbourhoodNotSent(ledger, operation, EVERY_PART, reason);
}
