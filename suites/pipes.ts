import { randomUUID } from 'node:crypto';
import { pipeCreateBody, pipeCreateBodyUnmappedColumn, pipeUpdateBody } from '../generators/index.ts';
import { authGroup, malformedJsonGroup } from './support/auth-group.ts';
import { accept, fromExample, reject } from './support/probe.ts';
import type { SuiteContext, SuiteDefinition } from './support/suite-types.ts';

const KINDS = ['broker', 'objectStorage', 'stream', 'relational'] as const;
const FIELD_MAPPINGS = 'pipes.field-mappings-cover-columns';

type Body = Record<string, unknown> & { destination: { columns: Array<{ name: string }> }; settings?: Record<string, unknown> };

const pipeParams = (pipeId: string): Record<string, string> => ({ pipeId });

/** Create a pipe, update it, then read its settings: every step is judged. */
async function lifecycle(context: SuiteContext, kind: (typeof KINDS)[number], createdPipes: string[]): Promise<void> {
  const creates = context.examples(`create ${kind}`, pipeCreateBody({ kind }));
  await Promise.all(creates.map(async (ex) => {
    const body = ex.value as Body;
    const created = await context.send('createPipe', { json: body, probe: accept('write', `a valid ${kind} pipe`, { rules: [FIELD_MAPPINGS], ...fromExample(ex) }) });
    const id = (created.response?.json as { result?: { id?: unknown } } | undefined)?.result?.id;
    if (!created.response || created.response.status >= 300 || typeof id !== 'string') return;
    createdPipes.push(id);
    context.created({ kind: 'pipe', id, operation: 'createPipe', note: `${kind} pipe` });
    const columns = body.destination.columns.map((c) => c.name);
    const tableMappings = (body.source as { relational?: { tableMappings?: unknown[] } }).relational?.tableMappings;
    const [update] = context.examples(`update ${kind} ${ex.example.index}`, pipeUpdateBody({ kind, columns, ...(tableMappings ? { tableMappings } : {}) } as Parameters<typeof pipeUpdateBody>[0]), 1);
    const patch = update!.value as Record<string, unknown> & { settings?: Record<string, unknown> };
    const updated = await context.send('updatePipe', { params: pipeParams(id), json: patch, probe: accept('write', `an update of a ${kind} pipe`, fromExample(update!)) });
    const settings = { ...body.settings, ...patch.settings };
    const sentSettings = Object.keys(settings).length > 0 && updated.response && updated.response.status < 300;
    await context.send('getPipeSettings', { params: pipeParams(id), probe: accept('write', `settings of an updated ${kind} pipe`, sentSettings ? { expect: { settings } } : {}) });
  }));
}

/** The pipes suite: per source kind create, update, read settings; unmapped columns; invalid requests; credentials. */
export function pipesSuite(): SuiteDefinition {
  /** Pipes this run created, shared by the groups (which run in order). */
  const createdPipes: string[] = [];
  return {
  name: 'pipes',
  operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
  sequential: true,
  groups: [
    ...KINDS.map((kind) => ({
      name: `${kind} pipe: create, update, read settings`,
      klass: 'write' as const,
      operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
      estimate: (runs: number) => 3 * runs,
      run: (context: SuiteContext) => lifecycle(context, kind, createdPipes),
    })),
    {
      name: 'fieldMappings that miss a column',
      klass: 'read',
      operations: ['createPipe'],
      estimate: (runs) => runs,
      async run(context) {
        await Promise.all(context.examples('unmapped column', pipeCreateBodyUnmappedColumn.arbitrary()).map((ex) =>
          context.send('createPipe', { json: ex.value, probe: reject('fieldMappings missing one destination column', FIELD_MAPPINGS, fromExample(ex)) })));
      },
    },
    {
      name: 'invalid pipe requests',
      klass: 'read',
      operations: ['createPipe', 'updatePipe', 'getPipeSettings'],
      estimate: () => 6,
      async run(context) {
        const [valid] = context.examples('create for invalid requests', pipeCreateBody({ kind: 'broker' }), 1);
        await Promise.all([
          context.send('createPipe', { json: { ...(valid!.value as object), name: 42 }, probe: reject('name as a number') }),
          context.send('createPipe', { json: { ...(valid!.value as object), source: { unknownKind: {} } }, probe: reject('an unknown source kind') }),
          context.send('createPipe', { params: { serviceId: randomUUID() }, json: valid!.value, probe: reject('an unknown serviceId') }),
          context.send('updatePipe', { params: pipeParams(randomUUID()), json: { name: 'conformance' }, probe: reject('an unknown pipeId') }),
          context.send('getPipeSettings', { params: pipeParams(randomUUID()), probe: reject('settings of an unknown pipeId') }),
          context.send('getPipeSettings', { params: pipeParams('not-a-uuid'), probe: reject('a pipeId that is not a uuid') }),
        ]);
      },
    },
    malformedJsonGroup([
      { operationId: 'createPipe' },
      { operationId: 'updatePipe', params: () => pipeParams(createdPipes[0] ?? randomUUID()) },
    ]),
    authGroup([
      { operationId: 'createPipe', api: 'management', request: (context) => ({ json: context.examples('create for credentials', pipeCreateBody({ kind: 'stream' }), 1)[0]!.value }) },
      { operationId: 'updatePipe', api: 'management', request: () => ({ params: pipeParams(createdPipes[0] ?? randomUUID()), json: { name: 'conformance credentials probe' } }) },
      { operationId: 'getPipeSettings', api: 'management', request: () => ({ params: pipeParams(createdPipes[0] ?? randomUUID()) }) },
    ]),
  ],
};
}
