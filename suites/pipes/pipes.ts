import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  pipeCreateBody,
  pipeCreateBodyObserve,
  pipeCreateBodyUnmappedColumn,
  pipeUpdateBody,
  pipeUpdateBodyObserve,
} from '../../generators/index.ts';
import { columnsNamedBy } from '../../generators/pipeDestination.ts';
import { authGroups, malformedJsonGroups } from '../auth-group.ts';
import { accessGroups, type AccessTarget } from '../access-groups.ts';
import { READ_ONLY_FIELDS, readOnlyProbe, SHARED_READ_ONLY } from '../read-only-fields.ts';
import { PATH_SCOPE_PARTS } from '../../rules/access.ts';
import { REFUSED_WRITE_PARTS } from '../../rules/writes.ts';
import { TEXT_SAMPLES } from '../text-samples.ts';
import { payload } from '../../rules/body.ts';
import { isRefusal, isSuccess } from '../../transport/exchange.ts';
import { PIPE_SEQUENCES, pipeSequences } from './sequence-pipes.ts';
import { accept, fromExample, observe, reject } from '../../engine/probe.ts';
import type { Example, JudgedExchange, ProbeGroup, SuiteContext, SuiteDefinition } from '../../engine/suite-types.ts';
import type { Probe } from '../../core/probe-types.ts';
import { choiceOf, noOpenValues, OpenValues, valueAt, withoutPaths, withValueAt } from './open-values.ts';
import { namesAny, refusalHints } from './refusal-hints.ts';
import {
  type NeighbourhoodTarget,
  neighbourhoodEstimate,
  neighbourhoodGroups,
  neighbourhoodProbes,
  sendNeighbourhood,
} from '../neighbourhood.ts';
import { UNMAPPED_UPDATE } from '../../rules/pipes.ts';

const KINDS = ['broker', 'objectStorage', 'stream', 'relational'] as const;
const FIELD_MAPPINGS = 'pipes.field-mappings-cover-columns';
const REFUSED = 'writes.refused-unchanged';
/** The group that learns the values of the open fields that must-accept probes then send. */
const LEARN = 'pipe open fields: values the target answers and accepts';
/**
 * Numbers of every kind the documents allow for a number whose bounds are not shown: zero, negative, fractional,
 * 2^31 ± 1, past 2^53 (a bigint, sent as its digits) and larger.
 */
const EDGE_NUMBERS: readonly (number | bigint)[] = Object.freeze([
  2 ** 31 + 1,
  0,
  -1,
  0.5,
  2 ** 31 - 1,
  2n ** 53n + 1n,
  -(2 ** 31) - 1,
  1e21,
  2n ** 64n + 1n,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
]);
/** Names of every kind of text: accents, CJK, emoji, combining marks, right-to-left; empty; long. */
const EDGE_NAMES: readonly string[] = Object.freeze([
  'ct-Ünïcödé 日本語 🚀👩‍👩‍👧 cafe\u0301 שלום مرحبا',
  '',
  'ct-長い名前-'.padEnd(1_000, 'é語'),
]);

/** The source kind of each round of edge values, beside its name: every kind with open fields of its own first. */
const EDGE_KINDS = ['relational', 'stream', 'broker'] as const;

/** `body` with every number at an open path given an edge value, the `round`th turn of them. */
function withEdgeNumbers(
  body: Record<string, unknown>,
  open: readonly string[],
  round: number,
): Record<string, unknown> {
  let at = round * 5;
  return open.reduce(
    (json, path) =>
      typeof valueAt(body, path) === 'number'
        ? withValueAt(json, path, EDGE_NUMBERS[at++ % EDGE_NUMBERS.length])
        : json,
    body,
  );
}

/** How many times an edge body is sent again with the values its refusal gave (edge values break many bounds). */
const EDGE_RETRIES = 2;
/**
 * How many times a drawn body is sent again with the values its refusal gave: a validator that names one field per
 * refusal (Ajv as Fastify sets it up) names each drawn value outside its bounds in turn.
 */
const DRAWN_RETRIES = 3;

/** The kinds sent once more when their open fields are still unknown: those with open fields in their source. */
const LEARN_AGAIN: readonly string[] = ['relational', 'stream'];

/** The source kind of a pipe body. */
const kindOf = (body: Record<string, unknown>): string =>
  KINDS.find((kind) => kind in ((body.source as object | undefined) ?? {})) ?? '';

/**
 * Learns the open fields' values: a relational pipe created without them (its answer shows what the target chose:
 * every settings key), pipes of each kind with edge numbers there and names of every kind (an accepted body gives
 * them); while some are unknown, each refused one again with its drawn name and, in each field its refusal names, the
 * value the refusal gives (`must be a whole number from 690 to 1020`: a target that wants complete bodies and bounds
 * them accepts no body without such values), at most twice; then, for a kind whose open fields are still unknown, one
 * created with the values known and the others as drawn, and while refused, again with the values its refusal gives
 * (`body/scaling/replicaMemoryGb must be >= 0.5`), at most three times: only observe probes, learning only what the
 * target then accepts.
 */
async function learnOpenValues(context: SuiteContext, values: OpenValues): Promise<void> {
  const open = context.openFields('createPipe');
  const bodies = EDGE_KINDS.map(
    (kind): Record<string, unknown> => ({
      ...context.examples(`create ${kind} for open values`, pipeCreateBody({ kind }), 1)[0]!.value,
    }),
  );
  const created = async (json: Record<string, unknown>, label: string): Promise<JudgedExchange> => {
    const exchange = await context.send('createPipe', { json, probe: observe(label) });
    if (isSuccess(exchange)) values.learn(open, json);
    return exchange;
  };
  const bare = await context.send('createPipe', {
    json: withoutPaths(bodies[0]!, open),
    probe: observe('a pipe created without its open fields: the answer shows what the target chose'),
  });
  if (isSuccess(bare)) values.learn(open, (bare.response?.json as { result?: unknown } | undefined)?.result);
  else values.unexplained = unexplainedRefusal(bare, bodies[0]!, open);
  const edges = await Promise.all(
    EDGE_NAMES.map((name, round) =>
      created(
        { ...withEdgeNumbers(bodies[round]!, open, round), name },
        'a pipe with numbers and a name of every kind the documents allow',
      ),
    ),
  );
  await Promise.all(
    edges.map((edge, round) => retried(edge, withEdgeNumbers(bodies[round]!, open, round), EDGE_RETRIES)),
  );
  await Promise.all(
    bodies
      .filter((body) => values.missing(open, body).length > 0 && LEARN_AGAIN.includes(kindOf(body)))
      .map(async (body) => {
        const json = values.fill(
          open.filter((path) => values.has(path)),
          body,
          choiceOf(body),
        )!;
        const drawn = await created(json, 'a pipe with the open values known and the others as drawn');
        await retried(drawn, json, DRAWN_RETRIES);
      }),
  );

  /**
   * While `refused` is refused and `json` sends open fields of unknown values, `json` again with the values the
   * refusal gives in the fields it names (its bounds are not shown, RULES.md), at most `bound` times.
   */
  async function retried(first: JudgedExchange, sent: Record<string, unknown>, bound: number): Promise<void> {
    let refused = first;
    let json = sent;
    for (let attempt = 0; attempt < bound && !isSuccess(refused) && values.missing(open, json).length > 0; attempt++) {
      const unknown = values.missing(open, json);
      const hints = refusalHints(refused.response?.text ?? '', unknown, (path) => valueAt(json, path));
      if (hints.size === 0) return;
      const known = open.filter((path) => values.has(path));
      json = [...hints].reduce(
        (body, [path, value]) => withValueAt(body, path, value),
        values.fill(known, json, choiceOf(json))!,
      );
      refused = await created(json, 'a pipe with the values its refusal gave in the fields it named');
    }
  }
}

/**
 * What a refusal of a body sent without the open fields says, where its words name a documented field of the body
 * that is none of them nor a step of their paths (`validateSamples is not supported`, `unknown field
 * source.validateSamples`): no value whose bounds are not shown explains it. Undefined when it is no 4xx or its words
 * name an open field (by its own name, the last step of its path: `source`, a step of `source.relational.port`, names
 * no open field), or none of the body's.
 */
function unexplainedRefusal(
  refused: JudgedExchange,
  body: Record<string, unknown>,
  open: readonly string[],
): string | undefined {
  const status = refused.response?.status ?? 0;
  if (status < 400 || status >= 500) return undefined;
  const text = refused.response?.text ?? '';
  const steps = new Set(open.flatMap((path) => path.split('.')));
  const documented = fieldNames(body).filter((name) => !steps.has(name));
  const openFields = open.map((path) => path.slice(path.lastIndexOf('.') + 1));
  return namesAny(text, documented) && !namesAny(text, openFields)
    ? `the same create without the open fields was refused too (HTTP ${status}), naming no open field`
    : undefined;
}

/** Every member name in a JSON value, at any depth. */
function fieldNames(value: unknown): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap(fieldNames))];
  if (typeof value !== 'object' || value === null) return [];
  return [...new Set(Object.entries(value).flatMap(([key, item]) => [key, ...fieldNames(item)]))];
}

/** The group whose pipes the credential and malformed-body probes of update and settings use. */
const LIFECYCLES = KINDS.map((kind) => `${kind} pipe: create, update, read settings`);
const FIRST_LIFECYCLE = LIFECYCLES[0]!;
/**
 * The groups that change the first pipe, or could on a faulty target, in their order: the path-scope group reads its
 * settings before and after updates that must be refused, so nothing else may change it meanwhile, the updates of
 * other pipes included (a target that spills one pipe's update into another would be blamed on the path's scope); it
 * runs after every group that updates pipes on purpose, and the other writers of the first pipe after it.
 */
const PATH_SCOPE_UPDATE = 'path scope: updatePipe, then its settings';
const OBSERVED = 'observed pipe creates and updates';
const READ_ONLY = 'fields only the server writes: createPipe, updatePipe';

type Body = Record<string, unknown> & {
  destination: { columns: Array<{ name: string; type: string }>; tableDefinition?: unknown };
  settings?: Record<string, unknown>;
};

const pipeParams = (pipeId: string): Record<string, string> => ({ pipeId });

/** A pipe this run created, with the body it was created from. */
interface CreatedPipe {
  readonly id: string;
  readonly kind: (typeof KINDS)[number];
  readonly body: Body;
}

/**
 * What an update of a pipe created from `body` must keep to: its kind, its columns as created (every one its
 * `tableDefinition` names kept, none changing type), and its table mappings for a relational source.
 */
function updateConstraints(kind: (typeof KINDS)[number], body: Body): Parameters<typeof pipeUpdateBody>[0] {
  const columns = body.destination.columns;
  const keep = columnsNamedBy(body.destination.tableDefinition, columns).map((column) => column.name);
  const tableMappings = (body.source as { relational?: { tableMappings?: unknown[] } }).relational?.tableMappings;
  return { kind, columns, keep, ...(tableMappings ? { tableMappings } : {}) } as Parameters<typeof pipeUpdateBody>[0];
}

/** Complete, valid update bodies for a pipe created from `body`. */
function updateBodyFor(kind: (typeof KINDS)[number], body: Body): ReturnType<typeof pipeUpdateBody> {
  return pipeUpdateBody(updateConstraints(kind, body));
}

/** Create a pipe, update it, then read its settings: every step is judged. */
async function lifecycle(
  context: SuiteContext,
  kind: (typeof KINDS)[number],
  createdPipes: CreatedPipe[],
  values: OpenValues,
): Promise<void> {
  const open = context.openFields('createPipe');
  const openUpdate = context.openFields('updatePipe');
  const [first] = context.examples(`create ${kind}`, pipeCreateBody({ kind }), 1);
  const create = (json: unknown, more: Partial<Probe>): Promise<JudgedExchange> =>
    context.send('createPipe', { json, probe: accept(`a valid ${kind} pipe`, { rules: [FIELD_MAPPINGS], ...more }) });
  const missing = values.missing(open, first!.value);
  if (missing.length > 0 && values.unexplained === undefined) return context.unable(noOpenValues(missing));
  if (missing.length > 0) {
    // Its refusals are not the open fields' to explain: the complete body goes as drawn, and must be accepted.
    await create(first!.value, { ...fromExample(first!), label: `a valid ${kind} pipe (${values.unexplained})` });
    return context.unable(noOpenValues(missing), { operations: ['updatePipe', 'getPipeSettings'] });
  }
  // Must-accept: the open fields take only values this target answered or accepted in this run.
  const arbitrary = pipeCreateBody({ kind }).map((body) => values.fill(open, body, choiceOf(body))!);
  const lifecycleOf = async (ex: Example<unknown>): Promise<JudgedExchange> => {
    const body = ex.value as Body;
    const created = await create(body, fromExample(ex));
    const id = (created.response?.json as { result?: { id?: unknown } } | undefined)?.result?.id;
    if (!created.response || created.response.status >= 300 || typeof id !== 'string') return created;
    // Only the first two are kept: every body would hold memory in proportion to --runs.
    if (createdPipes.length < 2) createdPipes.push({ id, kind, body });
    // A changed value of each setting, from those the target accepted (for another pipe, where it accepted several).
    const [update] = context.examples(`update ${kind} ${ex.example.index}`, updateBodyFor(kind, body), 1);
    const drawn = update!.value as Record<string, unknown>;
    const patch = values.fill(openUpdate, drawn, choiceOf(drawn), body) as
      | (Record<string, unknown> & { settings?: Record<string, unknown> })
      | undefined;
    if (!patch) {
      context.unable(noOpenValues(values.missing(openUpdate, drawn)), {
        operations: ['updatePipe', 'getPipeSettings'],
      });
      return created;
    }
    const updated = await context.send('updatePipe', {
      params: pipeParams(id),
      json: patch,
      probe: accept(`an update of a ${kind} pipe`, fromExample(update!)),
    });
    const settings = { ...body.settings, ...patch.settings };
    const sentSettings = Object.keys(settings).length > 0 && updated.response && updated.response.status < 300;
    await context.send('getPipeSettings', {
      params: pipeParams(id),
      probe: accept(`settings of an updated ${kind} pipe`, sentSettings ? { expect: { settings } } : {}),
    });
    return created;
  };
  await context.eachExample(`create ${kind}`, arbitrary, lifecycleOf, { shrink: create });
}

/**
 * Updates of a pipe, one after another, each followed by a read of its settings: one built to be refused (a complete
 * update with one setting a string), then observe ones (engine_max_threads alone, the name alone, drawn ones). After
 * each refused one the settings must read as before it (writes.refused-unchanged); after an accepted one, the settings
 * it did not send must read as before it (pipes.state-consistent) and engine_max_threads as sent
 * (pipes.update-applies), and the read is what the next is compared with.
 */
async function refusedOrObserved(context: SuiteContext, pipe: CreatedPipe, values: OpenValues): Promise<void> {
  const params = pipeParams(pipe.id);
  const read = (probe: Probe): Promise<JudgedExchange> => context.send('getPipeSettings', { params, probe });
  const [complete] = context.examples('update refused for a string setting', updateBodyFor(pipe.kind, pipe.body), 1);
  const drawn = complete!.value as Record<string, unknown>;
  const filled = values.fill(context.openFields('updatePipe'), drawn, choiceOf(drawn), pipe.body) ?? drawn;
  const settings = (filled.settings ?? {}) as Record<string, unknown>;
  const [key = 'engine_max_threads'] = Object.keys(settings);
  type Json = Record<string, unknown>;
  const updates: { json: Json | ((known: Json | undefined) => Json); probe: Probe; applies?: true }[] = [
    {
      json: { ...filled, settings: { ...settings, [key]: 'not a number' } },
      probe: reject(`a complete update whose ${key} is a string`),
    },
    {
      // A value other than the one read, so that its read shows whether it was stored (not only answered).
      json: (known) => ({ settings: { engine_max_threads: otherThreads(known?.engine_max_threads) } }),
      probe: observe('an update of engine_max_threads alone'),
      applies: true,
    },
    ...context
      .examples('observed update', pipeUpdateBodyObserve(updateConstraints(pipe.kind, pipe.body)), 2)
      .map((ex) => ({
        json: ex.value,
        probe: observe('an update the documents neither require nor forbid', fromExample(ex)),
      })),
  ];
  let before = await read(accept('settings before updates that may be refused'));
  before = await namesAtOnce(context, pipe, before);
  for (const { json: body, probe, applies } of updates) {
    const known = isSuccess(before) ? (payload(before) as Record<string, unknown> | undefined) : undefined;
    const json = typeof body === 'function' ? body(known) : body;
    const update = await context.send('updatePipe', { params, json, probe });
    const refused = isRefusal(update);
    const sent = (json as { settings?: unknown }).settings;
    const kept =
      known && isSuccess(update) && sent && typeof sent === 'object'
        ? Object.fromEntries(Object.entries(known).filter(([key]) => !(key in sent)))
        : undefined;
    before = await read(
      refused && known
        ? accept(`settings after ${probe.label}, refused`, {
            rules: [REFUSED],
            part: REFUSED_WRITE_PARTS.pipe,
            expect: { refusedUnchanged: { settings: known } },
          })
        : kept && applies
          ? accept(`settings after ${probe.label}: the one it sent, the others as before`, {
              expect: { pipeState: { id: pipe.id, settings: { ...kept, ...(sent as Json) } }, settings: sent },
            })
          : kept && Object.keys(kept).length > 0
            ? accept(`settings after ${probe.label}: those it did not send as before`, {
                expect: { pipeState: { id: pipe.id, settings: kept } },
              })
            : accept(`settings after ${probe.label}`),
    );
  }
}

/**
 * Updates of the name alone, to text of every kind, sent at once (they wait on no answer: none sends a setting), then
 * one settings read that must show the settings read before them, whether each was taken or refused; returns the read.
 */
async function namesAtOnce(context: SuiteContext, pipe: CreatedPipe, before: JudgedExchange): Promise<JudgedExchange> {
  const params = pipeParams(pipe.id);
  const known = isSuccess(before) ? (payload(before) as Record<string, unknown> | undefined) : undefined;
  const updates = await Promise.all(
    TEXT_SAMPLES.map(({ kind, text }) =>
      context.send('updatePipe', {
        params,
        json: { name: text },
        probe: observe(`an update of the name alone, to ${kind}`),
      }),
    ),
  );
  if (!known) return context.send('getPipeSettings', { params, probe: accept('settings after updates of the name') });
  const refused = updates.some(isRefusal);
  const taken = updates.some(isSuccess);
  return context.send('getPipeSettings', {
    params,
    probe: accept('settings after updates of the name alone, sent at once: as before them', {
      ...(refused ? { rules: [REFUSED], part: REFUSED_WRITE_PARTS.pipe } : {}),
      expect: {
        ...(refused ? { refusedUnchanged: { settings: known } } : {}),
        ...(taken ? { pipeState: { id: pipe.id, settings: known } } : {}),
      },
    }),
  });
}

const PATH_SCOPED = 'access.path-scoped';

/** A value of the settings key `engine_max_threads` (1 to 64) other than `before`'s. */
const otherThreads = (before: unknown): number =>
  typeof before === 'number' && before >= 1 && before < 64 ? before + 1 : 1;

/**
 * The run's pipe updated under another organization, then under another service, each to be refused, and after each a
 * settings read that shows the settings read before.
 */
async function updatesUnderOtherPaths(context: SuiteContext, pipe: CreatedPipe): Promise<void> {
  const params = pipeParams(pipe.id);
  const before = await context.send('getPipeSettings', {
    params,
    probe: accept('settings before updates under another path'),
  });
  const settings = payload(before);
  if (!isSuccess(before) || !settings)
    return context.unable("the settings of the run's pipe were not read, so nothing shows them unchanged");
  const moves = [
    { part: PATH_SCOPE_PARTS.organization, param: 'organizationId' },
    { part: PATH_SCOPE_PARTS.service, param: 'serviceId' },
  ];
  for (const { part, param } of moves) {
    const [update] = context.examples(`update under ${part}`, updateBodyFor(pipe.kind, pipe.body), 1);
    const body = update!.value as Record<string, unknown> & { settings?: Record<string, unknown> };
    await context.send('updatePipe', {
      params: { ...params, [param]: randomUUID() },
      json: { ...body, settings: { ...body.settings, engine_max_threads: otherThreads(settings.engine_max_threads) } },
      probe: reject(`an update of the run's pipe under ${part} (a fresh ${param})`, PATH_SCOPED, {
        part,
        ...fromExample(update!),
      }),
    });
    await context.send('getPipeSettings', {
      params,
      probe: accept(`settings after an update under ${part}`, {
        rules: [PATH_SCOPED],
        part: PATH_SCOPE_PARTS.unchanged,
        expect: { unchanged: settings },
      }),
    });
  }
}

/**
 * The pipe operations whose credentials and access are probed, each with a request the run's own credentials would have
 * had accepted.
 */
function pipeAccessTargets(createdPipes: readonly CreatedPipe[], noPipe: string): AccessTarget[] {
  return [
    {
      operationId: 'createPipe',
      api: 'management',
      scope: 'service',
      request: (context) => ({
        json: context.examples('create under another path', pipeCreateBody({ kind: 'broker' }), 1)[0]!.value,
      }),
    },
    {
      operationId: 'updatePipe',
      api: 'management',
      // Its updates change the first pipe if a faulty target takes them: after the groups that change it on purpose.
      after: [READ_ONLY],
      request: (context) => {
        const pipe = createdPipes[0];
        return pipe
          ? {
              params: pipeParams(pipe.id),
              json: context.examples('update by another tenant', updateBodyFor(pipe.kind, pipe.body), 1)[0]!.value,
            }
          : { unable: noPipe };
      },
    },
    {
      operationId: 'getPipeSettings',
      api: 'management',
      scope: 'service',
      after: [FIRST_LIFECYCLE],
      request: () => (createdPipes[0] ? { params: pipeParams(createdPipes[0].id) } : { unable: noPipe }),
    },
  ];
}

/** The pipes suite: per source kind create, update, read settings; unmapped columns; invalid requests; credentials. */
export function pipesSuite(): SuiteDefinition {
  /**
   * The first two pipes of the first lifecycle group (the later groups send to them, each after that group and after
   * the other groups that change the first pipe: see PATH_SCOPE_UPDATE).
   */
  const createdPipes: CreatedPipe[] = [];
  const values = new OpenValues();
  const NO_PIPE =
    'no pipe of this run to send it to (none was created), and an unknown pipe id would let a 404 pass for a rejection';
  const accessTargets = pipeAccessTargets(createdPipes, NO_PIPE);
  const knownPipe = (): Record<string, string> | { unable: string } =>
    createdPipes[0] ? pipeParams(createdPipes[0].id) : { unable: NO_PIPE };
  return {
    name: 'pipes',
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    // Groups run as soon as the groups they name in `after` are through: each pipe is one group's, but the first.
    chained: true,
    confirmingWrites: [
      {
        operationId: 'createPipe',
        label: 'preflight: a relational pipe created without its open fields, to confirm SERVICE_ID',
        json: (seed, open) =>
          withoutPaths(fc.sample(pipeCreateBody({ kind: 'relational' }), { seed, numRuns: 1 })[0]!, open),
      },
    ],
    groups: [
      {
        name: LEARN,
        operations: ['createPipe'],
        // A target that gives every value in these (as a clean one does) is sent no create again: the plan counts none.
        estimate: () => 1 + EDGE_NAMES.length,
        run: (context) => learnOpenValues(context, values),
      },
      ...KINDS.map((kind, at): ProbeGroup => {
        const name = LIFECYCLES[at]!;
        return {
          name,
          operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
          feeds: [`${FIELD_MAPPINGS}#covering mappings accepted`, 'pipes.update-applies'],
          after: [LEARN],
          estimate: (runs) => 3 * runs,
          run: (context) => lifecycle(context, kind, name === FIRST_LIFECYCLE ? createdPipes : [], values),
        };
      }),
      pipeSequences(values, LEARN),
      {
        name: 'fieldMappings that miss a column',
        operations: ['createPipe'],
        feeds: [`${FIELD_MAPPINGS}#a missed column rejected`],
        estimate: (runs) => runs,
        async run(context) {
          await context.eachExample('unmapped column', pipeCreateBodyUnmappedColumn.arbitrary(), (ex) =>
            context.send('createPipe', {
              json: ex.value,
              probe: reject('fieldMappings missing one destination column', FIELD_MAPPINGS, fromExample(ex)),
            }),
          );
        },
      },
      invalidPipeRequestsGroup(),
      {
        name: 'settings of unknown pipes',
        operations: ['getPipeSettings'],
        estimate: () => 2,
        async run(context) {
          await Promise.all([
            context.send('getPipeSettings', {
              params: pipeParams(randomUUID()),
              probe: reject('settings of an unknown pipeId'),
            }),
            context.send('getPipeSettings', {
              params: pipeParams('not-a-uuid'),
              probe: reject('a pipeId that is not a uuid'),
            }),
          ]);
        },
      },
      {
        name: OBSERVED,
        operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
        feeds: [`${REFUSED}#${REFUSED_WRITE_PARTS.pipe}`],
        after: [PATH_SCOPE_UPDATE],
        estimate: (runs) => Math.min(runs, 2) + 2 + TEXT_SAMPLES.length + 2 * (2 + Math.min(runs, 2)),
        async run(context) {
          const creates = context.examples('observed create', pipeCreateBodyObserve(), 2).map((ex) =>
            context.send('createPipe', {
              json: ex.value,
              probe: observe('a pipe body the documents neither require nor forbid', fromExample(ex)),
            }),
          );
          const pipe = createdPipes[0];
          if (!pipe) context.unable(NO_PIPE, { operations: ['updatePipe', 'getPipeSettings'] });
          const updates = pipe ? refusedOrObserved(context, pipe, values) : Promise.resolve();
          await Promise.all([...creates, updates]);
        },
      },
      {
        name: PATH_SCOPE_UPDATE,
        operations: ['updatePipe', 'getPipeSettings'],
        feeds: [PATH_SCOPE_PARTS.organization, PATH_SCOPE_PARTS.service, PATH_SCOPE_PARTS.unchanged].map(
          (part) => `${PATH_SCOPED}#${part}`,
        ),
        after: [...LIFECYCLES, PIPE_SEQUENCES],
        estimate: () => 5,
        async run(context) {
          if (createdPipes[0]) await updatesUnderOtherPaths(context, createdPipes[0]);
          else context.unable(NO_PIPE);
        },
      },
      readOnlyGroup(createdPipes, NO_PIPE),
      ...neighbourhoodGroups([
        {
          operationId: 'createPipe',
          after: [LEARN],
          request: (context) => ({ bodies: KINDS.map((kind) => filledCreate(context, values, kind, 'neighbourhood')) }),
        },
      ]),
      ownPipeGroup(values),
      ...accessGroups(accessTargets),
      ...malformedJsonGroups([
        { operationId: 'createPipe' },
        { operationId: 'updatePipe', params: knownPipe, after: [FIRST_LIFECYCLE] },
      ]),
      ...authGroups(accessTargets),
    ],
  };
}

/** Creates and updates that send the fields only the server writes, each judged by what the answer shows of them. */
function readOnlyGroup(createdPipes: readonly CreatedPipe[], noPipe: string): ProbeGroup {
  return {
    name: READ_ONLY,
    operations: ['createPipe', 'updatePipe'],
    after: [OBSERVED],
    estimate: () => 2 * READ_ONLY_FIELDS,
    async run(context) {
      const serviceId = context.config.management?.serviceId ?? '';
      const sentOf = (anotherPipe: string | undefined): { field: string; value: unknown }[] => [
        { field: 'id', value: anotherPipe ?? randomUUID() },
        { field: 'serviceId', value: randomUUID() },
        ...SHARED_READ_ONLY,
      ];
      const [valid] = context.examples('create with server-written fields', pipeCreateBody({ kind: 'stream' }), 1);
      const creates = sentOf(createdPipes[0]?.id).map(({ field, value }) =>
        context.send('createPipe', {
          json: { ...(valid!.value as object), [field]: value },
          probe: readOnlyProbe(`a pipe create that also sends ${field}`, {
            sent: { [field]: value },
            kept: { serviceId },
          }),
        }),
      );
      const pipe = createdPipes[0];
      if (!pipe) context.unable(noPipe, { operations: ['updatePipe'] });
      const updates = pipe
        ? sentOf(createdPipes[1]?.id).map(({ field, value }) => {
            const [update] = context.examples(`update with ${field}`, updateBodyFor(pipe.kind, pipe.body), 1);
            return context.send('updatePipe', {
              params: pipeParams(pipe.id),
              json: { ...(update!.value as object), [field]: value },
              probe: readOnlyProbe(`a pipe update that also sends ${field}`, {
                sent: { [field]: value },
                kept: { id: pipe.id, serviceId },
              }),
            });
          })
        : [];
      await Promise.all([...creates, ...updates]);
    },
  };
}

/** Creates and updates the documents refuse: bodies of the wrong types and invalid values, each its own request. */
function invalidPipeRequestsGroup(): ProbeGroup {
  return {
    name: 'invalid pipe requests',
    operations: ['createPipe', 'updatePipe'],
    estimate: () => 4,
    async run(context) {
      const [valid] = context.examples('create for invalid requests', pipeCreateBody({ kind: 'broker' }), 1);
      await Promise.all([
        context.send('createPipe', {
          json: { ...(valid!.value as object), name: 42 },
          probe: reject('name as a number'),
        }),
        context.send('createPipe', {
          json: { ...(valid!.value as object), source: { unknownKind: {} } },
          probe: reject('an unknown source kind'),
        }),
        context.send('createPipe', {
          params: { serviceId: randomUUID() },
          json: valid!.value,
          probe: reject('an unknown serviceId'),
        }),
        context.send('updatePipe', {
          params: pipeParams(randomUUID()),
          json: { name: 'conformance' },
          probe: reject('an unknown pipeId'),
        }),
      ]);
    },
  };
}

/** A create body of a kind drawn for `purpose`, its open fields given values this target answered where known. */
function filledCreate(context: SuiteContext, values: OpenValues, kind: (typeof KINDS)[number], purpose: string): Body {
  const [drawn] = context.examples(`${purpose}: create ${kind}`, pipeCreateBody({ kind }), 1);
  const body = drawn!.value as Body;
  return (values.fill(context.openFields('createPipe'), body, choiceOf(body)) as Body | undefined) ?? body;
}

/** The column an update adds without its mapping. */
const UNMAPPED_COLUMN = Object.freeze({ name: 'ct_unmapped_column', type: 'String' });

/**
 * A pipe the run creates for the neighbourhood's probes: updates that leave a column unmapped (to be refused), then the
 * neighbourhood of its update and of its settings read, any method (the pipe is the run's own).
 */
function ownPipeGroup(values: OpenValues): ProbeGroup {
  let own: CreatedPipe | undefined;
  const params = (): Record<string, string> => pipeParams(own!.id);
  const targets: NeighbourhoodTarget[] = [
    {
      operationId: 'updatePipe',
      anyMethod: true,
      request: (context) => {
        const { kind, body } = own!;
        const open = context.openFields('updatePipe');
        const bodies = context
          .examples('neighbourhood: update', updateBodyFor(kind, body), 2)
          .map((ex) => ex.value as Record<string, unknown>)
          .map((drawn) => (values.fill(open, drawn, choiceOf(drawn), body) as Record<string, unknown>) ?? drawn);
        return { params: params(), bodies };
      },
    },
    { operationId: 'getPipeSettings', anyMethod: true, request: () => ({ params: params() }) },
  ];
  return {
    name: 'a pipe of the neighbourhood: unmapped columns, odd updates and reads',
    operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
    feeds: [`${FIELD_MAPPINGS}#${UNMAPPED_UPDATE}`],
    neighbourhood: true,
    after: [LEARN],
    estimate: (_runs, operationOf) =>
      3 + targets.reduce((n, target) => n + neighbourhoodEstimate(target, operationOf?.(target.operationId)), 0),
    async run(context) {
      const kinds = context.examples(
        'neighbourhood: pipe kind',
        fc.shuffledSubarray([...KINDS], { minLength: 4, maxLength: 4 }),
        1,
      )[0]!.value;
      const open = context.openFields('createPipe');
      const kind =
        kinds.find(
          (one) => values.missing(open, filledCreate(context, values, one, 'neighbourhood pipe')).length === 0,
        ) ?? kinds[0]!;
      const body = filledCreate(context, values, kind, 'neighbourhood pipe');
      // As the pipes' own must-accept creates: open fields the target gave no value of are not sent, unless its
      // refusals are not theirs to explain (then the body goes as drawn, and must be accepted).
      const missing = values.missing(open, body);
      if (missing.length > 0 && values.unexplained === undefined) return context.unable(noOpenValues(missing));
      const created = await context.send('createPipe', {
        json: body,
        probe: accept(`a valid ${kind} pipe for the neighbourhood's probes`),
      });
      const id = (created.response?.json as { result?: { id?: unknown } } | undefined)?.result?.id;
      if (!isSuccess(created) || typeof id !== 'string')
        return context.unable(
          'the pipe for these probes was not created, and an unknown pipe would let a 404 pass for a rejection',
          { operations: ['updatePipe', 'getPipeSettings'] },
        );
      own = { id, kind, body };
      const [kept, ...dropped] = body.fieldMappings as unknown[];
      await Promise.all([
        context.send('updatePipe', {
          params: params(),
          json: { destination: { columns: [...body.destination.columns, UNMAPPED_COLUMN] } },
          probe: reject('destination.columns with a new column and no mapping for it', FIELD_MAPPINGS, {
            part: UNMAPPED_UPDATE,
          }),
        }),
        context.send('updatePipe', {
          params: params(),
          json: { fieldMappings: dropped.length > 0 ? dropped : [] },
          probe: reject(`fieldMappings that drop the mapping of a column (${JSON.stringify(kept)})`, FIELD_MAPPINGS, {
            part: UNMAPPED_UPDATE,
          }),
        }),
      ]);
      const probes = await Promise.all(
        targets.map(async (target) => {
          const request = await target.request(context);
          return 'unable' in request ? { now: [], last: [] } : neighbourhoodProbes(context, target, request);
        }),
      );
      await sendNeighbourhood(context, { now: probes.flatMap((p) => p.now), last: probes.flatMap((p) => p.last) });
    },
  };
}
