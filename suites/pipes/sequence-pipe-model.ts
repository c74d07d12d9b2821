import type {
  DestinationColumn,
  FieldMapping,
  PipeCreateBody,
  PipeKind,
  PipeUpdatePatch,
  PipeUpdateBody,
} from '../../generators/index.ts';
import { columnsNamedBy } from '../../generators/pipeDestination.ts';
import { sameTable, tableKey, type PipeState, type TableKey } from '../../rules/sequence.ts';

type Mapping = Record<string, unknown>;

/** What the model knows of one pipe a sequence created: every value its writes left it with. */
export interface ModelPipe {
  readonly id: string;
  readonly kind: PipeKind;
  readonly name: string;
  /** The `createdAt` its create answered, where it answered one. */
  readonly createdAt?: string;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly columns: readonly unknown[];
  readonly fieldMappings: readonly unknown[];
  /** The columns its `tableDefinition` names, as created: every complete update keeps them. */
  readonly definitionColumns: readonly DestinationColumn[];
  /** For a relational source: the mappings it has (one copy or more on the target) and the ones removed. */
  readonly tableMappings?: { readonly present: readonly Mapping[]; readonly absent: readonly TableKey[] };
  /** Whether an update of it was accepted, so that a settings read shows what updates sent. */
  readonly updated: boolean;
}

/** The model of a pipes sequence: the pipes it created, in order. */
export interface PipeModel {
  readonly pipes: ModelPipe[];
  /** Whether the sequence may send this many requests more, `atOnce` of them at once (`SequenceReal.room`). */
  readonly room: (requests: number, atOnce?: number) => boolean;
}

/** Pipes a sequence creates at most: enough to interleave, few enough that updates find them. */
export const MAX_SEQUENCE_PIPES = 2;

/** The pipe a create body makes, once the target named it `id` (and answered its `createdAt`). */
export function createdPipe(kind: PipeKind, body: PipeCreateBody, id: string, createdAt?: unknown): ModelPipe {
  const mappings = (body.source as { relational?: { tableMappings?: Mapping[] } }).relational?.tableMappings;
  return {
    id,
    kind,
    name: body.name,
    ...(typeof createdAt === 'string' ? { createdAt } : {}),
    settings: { ...body.settings },
    columns: body.destination.columns,
    fieldMappings: body.fieldMappings,
    definitionColumns: columnsNamedBy(body.destination.tableDefinition, body.destination.columns),
    ...(kind === 'relational' ? { tableMappings: { present: mappings ?? [], absent: [] } } : {}),
    updated: false,
  };
}

/** What a pipe must read as. */
export function pipeState(pipe: ModelPipe): PipeState {
  return {
    id: pipe.id,
    name: pipe.name,
    ...(pipe.createdAt === undefined ? {} : { createdAt: pipe.createdAt }),
    settings: pipe.settings,
    columns: pipe.columns,
    fieldMappings: pipe.fieldMappings,
    ...(pipe.tableMappings ? { tableMappings: pipe.tableMappings } : {}),
  };
}

/**
 * The body an update sends to `pipe`, and whether it is complete: removals and the mapping added again are picked
 * among the mappings the model knows the pipe has, and one of them stays untouched where it has two or more (a target
 * that applies the mappings added as a replacement then shows it dropped). A relational update with nothing to remove
 * sends a part of a body, and one that adds a mapping the pipe has is an observe probe: a target may refuse a duplicate
 * (RULES.md).
 */
export function patchBody(pipe: ModelPipe, patch: PipeUpdatePatch): { body: PipeUpdateBody; complete: boolean } {
  const known = pipe.tableMappings?.present ?? [];
  const sent = (patch.body.source as { relational?: Record<string, unknown> } | undefined)?.relational;
  if (pipe.kind !== 'relational' || !sent) return { body: patch.body, complete: patch.complete };
  const picked = [...new Set(patch.remove.filter(() => known.length > 0).map((pick) => known[pick % known.length]!))];
  const remove = known.length > 1 && picked.length === known.length ? picked.slice(1) : picked;
  const kept = known.filter((mapping) => !remove.includes(mapping));
  const pick = patch.readd === undefined || known.length === 0 ? undefined : known[patch.readd % known.length];
  const again = pick && kept.includes(pick) && kept.length > 1 ? pick : undefined;
  const added = [...((sent.tableMappingsToAdd as Mapping[] | undefined) ?? []), ...(again ? [again] : [])];
  const { tableMappingsToRemove: _invented, ...rest } = sent;
  const relational = {
    ...rest,
    tableMappingsToAdd: added,
    ...(remove.length > 0 ? { tableMappingsToRemove: remove.map(tableKey) } : {}),
  };
  const duplicate = added.some((mapping) => known.some((had) => sameTable(had, tableKey(mapping))));
  return {
    body: { ...patch.body, source: { ...patch.body.source, relational } },
    complete: patch.complete && remove.length > 0 && !duplicate,
  };
}

/** The pipe after an accepted update with `body`: what it sent replaces, what it did not send keeps its value. */
export function updatedPipe(pipe: ModelPipe, body: PipeUpdateBody): ModelPipe {
  const relational = (
    body.source as { relational?: { tableMappingsToAdd?: Mapping[]; tableMappingsToRemove?: TableKey[] } } | undefined
  )?.relational;
  let tableMappings = pipe.tableMappings;
  if (tableMappings && relational) {
    const removed = relational.tableMappingsToRemove ?? [];
    const added = relational.tableMappingsToAdd ?? [];
    const present = tableMappings.present.filter(
      (m) => !removed.some((key) => sameTable(m, key)) && !added.some((a) => sameTable(m, tableKey(a))),
    );
    const absent = [...tableMappings.absent, ...removed].filter((key) => !added.some((a) => sameTable(a, key)));
    tableMappings = { present: [...present, ...added], absent };
  }
  return {
    ...pipe,
    ...(body.name === undefined ? {} : { name: body.name }),
    settings: { ...pipe.settings, ...body.settings },
    ...(body.destination === undefined ? {} : { columns: body.destination.columns }),
    ...(body.fieldMappings === undefined ? {} : { fieldMappings: body.fieldMappings }),
    ...(tableMappings ? { tableMappings } : {}),
    updated: true,
  };
}

/**
 * A complete update body drawn before its pipe was known, fitted to it: its columns hold every column the pipe's
 * `tableDefinition` names (as created, with the mapping the pipe holds for it), a drawn column of a name the pipe holds
 * takes the type it holds, and the field mappings cover exactly the columns (RULES.md: a must-accept body is
 * consistent with what the target holds).
 */
export function fittedToPipe(pipe: ModelPipe, body: PipeUpdateBody): PipeUpdateBody {
  if (!body.destination) return body;
  const kept = new Set(pipe.definitionColumns.map((column) => column.name));
  const held = new Map(
    (pipe.columns as readonly Partial<DestinationColumn>[]).flatMap((column) =>
      typeof column?.name === 'string' && typeof column.type === 'string' ? [[column.name, column.type] as const] : [],
    ),
  );
  const drawn = body.destination.columns
    .filter((column) => !kept.has(column.name))
    .map((column) => ({ ...column, type: held.get(column.name) ?? column.type }));
  const mappingOf = (name: string): FieldMapping =>
    (pipe.fieldMappings as readonly Partial<FieldMapping>[]).find(
      (mapping): mapping is FieldMapping =>
        mapping?.destinationField === name && typeof mapping.sourceField === 'string',
    ) ?? { sourceField: name, destinationField: name };
  return {
    ...body,
    destination: {
      ...body.destination,
      columns: [...pipe.definitionColumns.map((column) => ({ ...column })), ...drawn],
    },
    fieldMappings: [
      ...(body.fieldMappings ?? []).filter((mapping) => !kept.has(mapping.destinationField)),
      ...pipe.definitionColumns.map((column) => ({ ...mappingOf(column.name) })),
    ],
  };
}
