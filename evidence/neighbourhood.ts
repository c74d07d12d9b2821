import { FORM_KEYWORD, type Operation } from '../spec/spec.ts';

/**
 * The parts of a request the neighbourhood's probes send oddly (RULES.md, `errors.client-not-server`), one probe per
 * operation and part.
 */
export const REQUEST_PARTS = Object.freeze({
  notUuid: 'a path id that is not a uuid',
  longId: 'a very long path id',
  repeated: 'a query parameter repeated',
  empty: 'a query parameter empty',
  unknownQuery: 'an unknown query parameter',
  unknownField: 'an unknown top-level field',
  unknownNested: 'an unknown nested field',
  noContentType: 'no Content-Type',
  otherContentType: 'another Content-Type',
  method: 'a method the path does not list',
} as const);

/** The kinds of value the neighbourhood's probes put in a field, a bounded sample of (field, kind) pairs per run. */
export const VALUE_KINDS = Object.freeze({
  nul: 'U+0000 in a string',
  control: 'other control characters in a string',
  duplicates: 'duplicate items in an array',
  address: 'an address that is not an address',
  form: 'another unit or form',
} as const);

/** Every part and kind, in the order the coverage lists them. */
export const NEIGHBOURHOOD_NAMES: readonly string[] = Object.freeze([
  ...Object.values(REQUEST_PARTS),
  ...Object.values(VALUE_KINDS),
]);

/** The methods a request may take that its path may not list. */
export const METHODS: readonly string[] = Object.freeze(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST', 'PATCH']);

/** One part or kind of the neighbourhood an operation has, and where it can go (fields, parameters, methods). */
export interface NeighbourhoodPlace {
  readonly part: string;
  /** Where: field paths, parameter names, methods; empty for a part of the request as a whole. */
  readonly where: readonly string[];
}

type Schema = Readonly<Record<string, unknown>>;

const BRANCHES = ['anyOf', 'oneOf', 'allOf'] as const;

/** The request body's fields of each kind of value, as dotted paths (a list and its items are one field). */
export function requestFieldKinds(schema: object | undefined): {
  readonly strings: readonly string[];
  readonly arrays: readonly string[];
  readonly objects: readonly string[];
  readonly addresses: readonly string[];
  readonly forms: readonly string[];
} {
  const found = { strings: new Set<string>(), arrays: new Set<string>(), objects: new Set<string>() };
  const addresses = new Set<string>();
  const forms = new Set<string>();
  const walk = (node: unknown, path: string, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 12) return;
    const s = node as Schema;
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type];
    if (path !== '' && types.includes('string')) {
      found.strings.add(path);
      if (s[FORM_KEYWORD] === 'address') addresses.add(path);
      if (s[FORM_KEYWORD] === 'duration' || typeof s.pattern === 'string') forms.add(path);
    }
    if (path !== '' && types.includes('array')) found.arrays.add(path);
    if (path !== '' && s.properties && typeof s.properties === 'object') found.objects.add(path);
    for (const key of BRANCHES)
      if (Array.isArray(s[key])) for (const branch of s[key] as unknown[]) walk(branch, path, depth + 1);
    if (s.items) walk(s.items, path, depth + 1);
    if (s.properties && typeof s.properties === 'object')
      for (const [name, child] of Object.entries(s.properties as Record<string, unknown>))
        walk(child, path === '' ? name : `${path}.${name}`, depth + 1);
  };
  walk(schema, '', 0);
  return {
    strings: [...found.strings],
    arrays: [...found.arrays],
    objects: [...found.objects],
    addresses: [...addresses],
    forms: [...forms],
  };
}

/**
 * Every part and kind of the neighbourhood an operation has, by its spec: path ids where its path has parameters (not a
 * uuid where the spec says uuid), query parts where it takes a query, body parts and kinds of value where it takes a
 * body, and the methods its path does not list (`listed`).
 */
export function neighbourhoodOf(
  operation: Pick<Operation, 'pathParams' | 'uuidPathParams' | 'queryParams' | 'requestSchema'>,
  listed: readonly string[],
): NeighbourhoodPlace[] {
  const places: NeighbourhoodPlace[] = [];
  const add = (part: string, where: readonly string[] = [], when = true): void => {
    if (when) places.push({ part, where });
  };
  const uuids = operation.uuidPathParams ?? [];
  add(REQUEST_PARTS.notUuid, uuids, uuids.length > 0);
  add(REQUEST_PARTS.longId, operation.pathParams, operation.pathParams.length > 0);
  const query = operation.queryParams.map((param) => param.name);
  add(REQUEST_PARTS.repeated, query, query.length > 0);
  add(REQUEST_PARTS.empty, query, query.length > 0);
  add(REQUEST_PARTS.unknownQuery);
  const body = operation.requestSchema;
  const kinds = requestFieldKinds(body);
  add(REQUEST_PARTS.unknownField, [], body !== undefined);
  add(REQUEST_PARTS.unknownNested, kinds.objects, kinds.objects.length > 0);
  add(REQUEST_PARTS.noContentType, [], body !== undefined);
  add(REQUEST_PARTS.otherContentType, [], body !== undefined);
  add(
    REQUEST_PARTS.method,
    METHODS.filter((method) => !listed.includes(method)),
  );
  add(VALUE_KINDS.nul, kinds.strings, kinds.strings.length > 0);
  add(VALUE_KINDS.control, kinds.strings, kinds.strings.length > 0);
  add(VALUE_KINDS.duplicates, kinds.arrays, kinds.arrays.length > 0);
  add(VALUE_KINDS.address, kinds.addresses, kinds.addresses.length > 0);
  add(VALUE_KINDS.form, kinds.forms, kinds.forms.length > 0);
  return places;
}
