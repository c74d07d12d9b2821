import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type Json, type JsonObject } from './json.ts';
import type { Problem } from './problem.ts';

/**
 * What a create's answer keeps whether or not the request sent it (dotted paths): what the target itself assigns, and
 * what the documents say is always there.
 */
const ALWAYS = Object.freeze({
  createPipe: new Set(['id', 'serviceId', 'state', 'settings', 'createdAt', 'updatedAt']),
  createKey: new Set([
    'keyId',
    'keySecret',
    'key',
    'key.id',
    'key.keySuffix',
    'key.createdAt',
    'key.usedAt',
    'key.state',
    'key.expireAt',
  ]),
});

type Create = keyof typeof ALWAYS;

const isCreate = (operation: HookContext['operation']): operation is Create =>
  operation === 'createPipe' || operation === 'createKey';

/**
 * Hooks of a target that accepts partial create bodies (no documented field is required of a pipe or a key) and
 * answers a create with only what it was given, besides what it assigns and what the documents say is always there.
 */
export function echoOnly(): Hooks {
  return {
    review: (ctx, problems) =>
      isCreate(ctx.operation) ? problems.filter((p: Problem) => p.code !== 'required') : problems,
    result: (ctx, result) =>
      isCreate(ctx.operation) && isObject(ctx.input)
        ? (sentOnly(result, echoedOf(ctx.operation, ctx.input), ALWAYS[ctx.operation]) as JsonObject)
        : result,
  };
}

/** The request body as the answer nests it: a key create's fields come back under `key`. */
function echoedOf(operation: Create, body: JsonObject): JsonObject {
  return operation === 'createKey' ? { key: body } : body;
}

/** The answer pruned to the fields the request sent, at every depth, keeping the `always` paths and lists whole. */
function sentOnly(answer: Json, sent: Json | undefined, always: ReadonlySet<string>, at = ''): Json {
  if (!isObject(answer)) return answer;
  const kept: JsonObject = {};
  for (const [field, value] of Object.entries(answer)) {
    const path = at === '' ? field : `${at}.${field}`;
    const given = isObject(sent) ? sent[field] : undefined;
    if (value === undefined || (given === undefined && !always.has(path))) continue;
    kept[field] = Array.isArray(value) ? value : sentOnly(value, given, always, path);
  }
  return kept;
}
