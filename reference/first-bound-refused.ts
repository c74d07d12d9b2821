import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type Json, type JsonObject } from './json.ts';
import { DEFAULT_SCALING, DEFAULT_SETTINGS } from './pipe-spec.ts';
import { problem, type Problem } from './problem.ts';

/** The largest 32-bit signed integer: the top of a whole-number field as a JSON schema bounds it. */
const INT32_MAX = 2 ** 31 - 1;

/**
 * The lowest value of each numeric pipe field: a replica's memory from half a gigabyte, a setting whose default is 0
 * from 0, every other from one.
 */
const LOWEST: Readonly<Record<string, number>> = Object.freeze({
  replicaMemoryGb: 0.5,
  engine_parallel_distributed_insert_select: 0,
});

/** The first bound that `input`'s `section` breaks, in Ajv's words, or undefined. */
function firstBreach(section: string, input: Json | undefined, defaults: Readonly<JsonObject>): Problem | undefined {
  if (!isObject(input)) return undefined;
  for (const key of Object.keys(defaults).filter((name) => typeof defaults[name] === 'number')) {
    const value = input[key];
    if (typeof value !== 'number') continue;
    const breach = (words: string): Problem =>
      problem(`${section}.${key}`, 'invalid', `body/${section}/${key} ${words}`);
    const whole = key !== 'replicaMemoryGb';
    const lowest = LOWEST[key] ?? 1;
    if (whole && !Number.isInteger(value)) return breach('must be integer');
    if (value < lowest) return breach(`must be >= ${lowest}`);
    if (whole && value > INT32_MAX) return breach(`must be <= ${INT32_MAX}`);
  }
  return undefined;
}

/**
 * Hooks of a target whose JSON schema bounds every numeric pipe setting and scaling field (whole 32-bit numbers from 1,
 * a replica's memory from 0.5 GB), wants a relational source's port on create (it has no default: the database is the
 * client's), and, as Ajv does by default behind Fastify, names only the first bound a body breaks: each refusal gives
 * one field's bound.
 */
export function firstBoundRefused(): Hooks {
  const found = (ctx: HookContext): Problem[] => {
    if ((ctx.operation !== 'createPipe' && ctx.operation !== 'updatePipe') || !isObject(ctx.input)) return [];
    const source = isObject(ctx.input.source) ? ctx.input.source.relational : undefined;
    if (ctx.operation === 'createPipe' && isObject(source) && source.port === undefined)
      return [
        problem('source.relational.port', 'required', "body/source/relational must have required property 'port'"),
      ];
    const first =
      firstBreach('scaling', ctx.input.scaling, DEFAULT_SCALING) ??
      firstBreach('settings', ctx.input.settings, DEFAULT_SETTINGS);
    return first === undefined ? [] : [first];
  };
  return {
    review: (ctx, problems) => (problems.length > 0 ? problems : found(ctx)),
  };
}
