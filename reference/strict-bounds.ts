import { randomInt } from 'node:crypto';
import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type Json } from './json.ts';
import { DEFAULT_SCALING, DEFAULT_SETTINGS } from './pipe-spec.ts';
import { problem, type Problem } from './problem.ts';

/** The bounds of one numeric field: whole numbers (or multiples of `step`) from `min` to `max`. */
interface Bound {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** The scaling fields measured in halves (memory), the others in whole numbers. */
const HALVES: ReadonlySet<string> = new Set(['replicaMemoryGb']);

/**
 * Bounds around a default, drawn from this start's own randomness: from a fifth of it up to it, and from it up to five
 * times it and a few steps more, so that no range fixed in a client knows them.
 */
function boundAround(value: number, step: number): Bound {
  const steps = Math.round(value / step);
  const min = randomInt(Math.floor(steps / 5), steps + 1) * step;
  const max = (steps + randomInt(0, 4 * steps + 3) + 1) * step;
  return { min, max, step };
}

function boundsOf(defaults: Readonly<Record<string, Json | undefined>>): ReadonlyMap<string, Bound> {
  return new Map(
    Object.entries(defaults)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([key, value]) => [key, boundAround(value, HALVES.has(key) ? 0.5 : 1)]),
  );
}

function outOfBounds(section: string, input: Json | undefined, bounds: ReadonlyMap<string, Bound>): Problem[] {
  if (!isObject(input)) return [];
  return [...bounds].flatMap(([key, { min, max, step }]) => {
    const value = input[key];
    if (value === undefined) return [];
    const inside = typeof value === 'number' && Number.isInteger(value / step) && value >= min && value <= max;
    const unit = step === 1 ? 'a whole number' : `a multiple of ${step}`;
    return inside
      ? []
      : [problem(`${section}.${key}`, 'invalid', `${section}.${key} must be ${unit} from ${min} to ${max}`)];
  });
}

/**
 * Hooks of a target that bounds every numeric pipe setting and scaling field, with bounds it draws when it starts
 * (each around its default, so that a pipe created without them is valid), as a real deployment publishes its own.
 */
export function strictBounds(): Hooks {
  const settings = boundsOf(DEFAULT_SETTINGS);
  const scaling = boundsOf(DEFAULT_SCALING);
  const found = (ctx: HookContext): Problem[] =>
    ctx.operation === 'createPipe' || ctx.operation === 'updatePipe'
      ? [
          ...outOfBounds('settings', isObject(ctx.input) ? ctx.input.settings : undefined, settings),
          ...outOfBounds('scaling', isObject(ctx.input) ? ctx.input.scaling : undefined, scaling),
        ]
      : [];
  return {
    review: (ctx, problems) => {
      const more = found(ctx);
      return more.length === 0 ? problems : [...problems, ...more];
    },
  };
}
