import { randomInt } from 'node:crypto';
import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type Json } from './json.ts';
import { problem, type Problem } from './problem.ts';

/** A relational source's numeric settings. */
const RELATIONAL_SETTINGS = Object.freeze([
  'syncIntervalSeconds',
  'pullBatchSize',
  'initialLoadParallelism',
  'snapshotNumRowsPerPartition',
  'snapshotNumberOfParallelTables',
]);

/** The value `section.key` of `input` must have, when sent: `own`'s. */
function notOwn(section: string, input: Json | undefined, own: Readonly<Record<string, number>>): Problem[] {
  if (!isObject(input)) return [];
  return Object.entries(own).flatMap(([key, value]) =>
    input[key] === undefined || input[key] === value
      ? []
      : [problem(`${section}.${key}`, 'invalid', `${section}.${key} must be the source's own (not shown)`)],
  );
}

/**
 * Hooks of a target whose relational source is its own database and whose stream is its own: a relational source's
 * port and numeric settings, and a stream source's timestamp, must be the values it drew when it started (sent by no
 * client, shown in no answer to a request that left them out), else the write is rejected.
 */
export function sourceOwnValues(): Hooks {
  const relational = { port: randomInt(1_024, 65_536) };
  const settings = Object.fromEntries(RELATIONAL_SETTINGS.map((key) => [key, randomInt(1, 1_000_000)]));
  const stream = { timestamp: randomInt(1, 2 ** 40) };
  const found = (ctx: HookContext): Problem[] => {
    if (ctx.operation !== 'createPipe' && ctx.operation !== 'updatePipe') return [];
    const source = isObject(ctx.input) && isObject(ctx.input.source) ? ctx.input.source : {};
    const sent = isObject(source.relational) ? source.relational : undefined;
    return [
      ...notOwn('source.relational', sent, relational),
      ...notOwn('source.relational.settings', sent?.settings, settings),
      ...notOwn('source.stream', source.stream, stream),
    ];
  };
  return {
    review: (ctx, problems) => {
      const more = found(ctx);
      return more.length === 0 ? problems : [...problems, ...more];
    },
  };
}
