/** A probe group ready to run, with what the schedule needs to know of it. */
export interface ScheduledGroup {
  readonly name: string;
  /** Groups of the same suite that must have run before it starts. */
  readonly after: readonly string[];
  /** True when it may change the target's state for every other request (`x-conformance-class: disruptive`). */
  readonly disruptive: boolean;
  run(): Promise<void>;
}

/** One suite's runnable groups, in the suite's order. */
export interface ScheduledSuite {
  readonly name: string;
  /** The API its operations belong to: a disruptive group is alone among the suites of its API only. */
  readonly api: string;
  /** Its groups share state on the target: they run one after another, in order. */
  readonly sequential: boolean;
  readonly groups: readonly ScheduledGroup[];
}

/** What the schedule asks before it starts a group, and whom it tells when a suite is through. */
export interface ScheduleOptions {
  /** True once the run is interrupted: groups not started yet are not started. */
  readonly stopped: () => boolean;
  /** Called once per suite, as soon as none of its groups runs or will run, with the first error one of them threw. */
  readonly onDone?: (suite: string, error: unknown) => void;
}

/**
 * Runs the groups of every suite under the one request gate, each API's suites on their own (see `runApiSuites`), all
 * APIs at once: the service state operation stops a service of the management API, and the alerts API is another
 * deployment, with its own base URL and credentials, that its document ties to no service. Tells `onDone` of each suite
 * as soon as it is through, and returns, per suite, the first error one of its groups threw.
 */
export async function runSchedule(
  suites: readonly ScheduledSuite[],
  options: ScheduleOptions,
): Promise<Map<string, unknown>> {
  const errors = new Map<string, unknown>();
  const apis = [...new Set(suites.map((suite) => suite.api))];
  await Promise.all(
    apis.map((api) =>
      runApiSuites(
        suites.filter((suite) => suite.api === api),
        options,
        errors,
      ),
    ),
  );
  return errors;
}

/**
 * Runs the groups of one API's suites: first every group that is not isolated, all suites at once (a sequential
 * suite's groups one after another, any other group once the groups it runs `after` are done); then each suite's
 * isolated groups, one suite after another, each suite's as its own are ordered (in order, or by `after`: a suite
 * orders its disruptive groups so). A group is isolated when it is disruptive (the service stopped would refuse, or
 * fail, every other suite's requests for the wrong reason), when it belongs to a sequential suite that has a
 * disruptive group (its chain stays whole), or when it runs after an isolated group. A sequential suite's chain stops
 * at its first error, other suites go on.
 */
async function runApiSuites(
  suites: readonly ScheduledSuite[],
  options: ScheduleOptions,
  errors: Map<string, unknown>,
): Promise<void> {
  const record = (suite: ScheduledSuite, error: unknown): void => {
    if (!errors.has(suite.name)) errors.set(suite.name, error);
  };
  const done = (suite: ScheduledSuite): void => options.onDone?.(suite.name, errors.get(suite.name));
  const parts = suites.map((suite) => {
    const names = isolatedGroups(suite);
    return { suite, isolated: suite.groups.filter((group) => names.has(group.name)) };
  });
  await Promise.all(
    parts.map(async ({ suite, isolated }) => {
      await runTogether(
        suite,
        suite.groups.filter((group) => !isolated.includes(group)),
        options,
        record,
      );
      if (isolated.length === 0) done(suite);
    }),
  );
  for (const { suite, isolated } of parts.filter((part) => part.isolated.length > 0)) {
    if (!(suite.sequential && errors.has(suite.name))) await runTogether(suite, isolated, options, record);
    done(suite);
  }
}

/** The names of a suite's groups that must run alone. */
export function isolatedGroups(suite: ScheduledSuite): ReadonlySet<string> {
  const anyDisruptive = suite.groups.some((group) => group.disruptive);
  const isolated = new Set(
    suite.groups.filter((group) => group.disruptive || (suite.sequential && anyDisruptive)).map((group) => group.name),
  );
  let grew = true;
  while (grew) {
    grew = false;
    for (const group of suite.groups) {
      if (!isolated.has(group.name) && group.after.some((name) => isolated.has(name))) {
        isolated.add(group.name);
        grew = true;
      }
    }
  }
  return isolated;
}

/**
 * Runs a suite's groups that need not be alone: in order when the suite is sequential, else each once its `after`
 * groups are done.
 */
async function runTogether(
  suite: ScheduledSuite,
  groups: readonly ScheduledGroup[],
  options: ScheduleOptions,
  record: (suite: ScheduledSuite, error: unknown) => void,
): Promise<void> {
  if (suite.sequential) {
    for (const group of groups) {
      if (options.stopped()) return;
      try {
        await group.run();
      } catch (error) {
        record(suite, error);
        return;
      }
    }
    return;
  }
  // Every group's end first, so that a group may name one listed after it.
  const ends = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  for (const group of groups) {
    let resolve = (): void => undefined;
    const promise = new Promise<void>((settle) => {
      resolve = settle;
    });
    ends.set(group.name, { promise, resolve });
  }
  const runs = groups.map(async (group) => {
    try {
      await Promise.all(group.after.map((name) => ends.get(name)?.promise));
      if (options.stopped()) return;
      await group.run().catch((error: unknown) => record(suite, error));
    } finally {
      ends.get(group.name)?.resolve();
    }
  });
  await Promise.all(runs);
}
