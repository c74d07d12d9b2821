import { APIS } from '../apis/index.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Operation } from '../spec/spec.ts';
import { VALUE_KINDS } from '../evidence/neighbourhood.ts';

/** A JSON object, or undefined for anything else. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The response payload: the property its API's envelope names (`result`, `data`), when it is an object. */
export function payload(exchange: Exchange): Record<string, unknown> | undefined {
  const body = asObject(exchange.response?.json);
  return asObject(body?.[APIS[exchange.api].envelope.payload]);
}

/** The payload's JSON pointer prefix. */
export function payloadPath(exchange: Exchange): string {
  return `/${APIS[exchange.api].envelope.payload}`;
}

/** The request body as a JSON object, when it was one. */
export function requestBody(exchange: Exchange): Record<string, unknown> | undefined {
  return asObject(exchange.request.json);
}

/** The kinds of odd value a probe of the contract's neighbourhood puts in a field. */
const ODD_VALUE_KINDS: ReadonlySet<string> = new Set(Object.values(VALUE_KINDS));

/**
 * The request body as far as it makes an answer certain, for the rules that compare an answer with what was sent: the
 * body without the field to which a probe of the contract's neighbourhood gave an odd value (U+0000 in it, a duplicate
 * item, another form). The probe is observe only (RULES.md, `errors.client-not-server`): a target that takes such a
 * value may read it any way (CPython's `fromisoformat` reads a date-time up to its U+0000), so what it answers there
 * is observed, and every other field is compared as sent.
 */
export function certainBody(exchange: Exchange): Record<string, unknown> | undefined {
  const body = requestBody(exchange);
  const odd = exchange.probe.neighbourhood;
  if (!body || odd?.where === undefined || !ODD_VALUE_KINDS.has(odd.part)) return body;
  return asObject(withoutField(body, odd.where.split('.')));
}

/** A copy of `value` without the field at a dotted path (in a list's first item, where the path goes through one). */
function withoutField(value: unknown, steps: readonly string[]): unknown {
  if (Array.isArray(value)) return value.length === 0 ? value : [withoutField(value[0], steps), ...value.slice(1)];
  const object = asObject(value);
  const [step, ...rest] = steps;
  if (!object || step === undefined) return value;
  if (rest.length === 0) return Object.fromEntries(Object.entries(object).filter(([key]) => key !== step));
  return { ...object, [step]: withoutField(object[step], rest) };
}

export { sameId } from '../core/sameness.ts';

/** The documented schema of an operation's 200 payload: the property its API's envelope names (`result`, `data`). */
export function payloadSchema(operation: Operation): unknown {
  const schema = asObject(operation.responseSchemas['200']);
  return asObject(schema?.properties)?.[operation.envelope.payload];
}

/** True when the exchange's probe was built for the rule. */
export function probes(exchange: Exchange, ruleId: string): boolean {
  return exchange.probe.rules?.includes(ruleId) === true;
}

/**
 * The fields of a request body, at every depth, that its operation's request schema documents: what an answer may be
 * expected to carry back (a field only the server writes, sent anyway, is `access.read-only-fields`' to judge; one no
 * document names may be ignored).
 */
export function documentedProperties(body: Record<string, unknown>, operation: Operation): Record<string, unknown> {
  return operation.requestSchema ? (documentedIn(body, [operation.requestSchema]) as Record<string, unknown>) : body;
}

const BRANCHES = ['anyOf', 'oneOf', 'allOf'] as const;

/** The schemas a value may be read by: `schemas` and their branches, at any depth. */
function withBranches(schemas: readonly unknown[]): Record<string, unknown>[] {
  return schemas.flatMap((schema) => {
    const object = asObject(schema);
    if (!object) return [];
    return [object, ...withBranches(BRANCHES.flatMap((key) => (Array.isArray(object[key]) ? object[key] : [])))];
  });
}

/** A value with the object members none of `schemas` (or their branches) names left out, at every depth. */
function documentedIn(value: unknown, schemas: readonly unknown[]): unknown {
  const all = withBranches(schemas);
  if (Array.isArray(value))
    return value.map((item) =>
      documentedIn(
        item,
        all.map((schema) => schema.items),
      ),
    );
  const object = asObject(value);
  const named = all.map((schema) => asObject(schema.properties)).filter((p) => p !== undefined);
  if (!object || named.length === 0) return value;
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => named.some((properties) => key in properties))
      .map(([key, item]) => [
        key,
        documentedIn(
          item,
          named.map((properties) => properties[key]),
        ),
      ]),
  );
}
