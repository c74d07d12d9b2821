import type { HookContext, Hooks } from './hooks.ts';
import { isObject, type Json } from './json.ts';
import { KEY_SPEC } from './keys.ts';
import { CREATE_PIPE_SPEC, CREATE_SOURCE_SPECS, UPDATE_PIPE_SPEC, UPDATE_SOURCE_SPECS } from './pipe-spec.ts';
import { problem, type Problem } from './problem.ts';
import { SOURCE_KINDS, type Store } from './store.ts';
import { absentFields, obj, num, str, type FieldSpec } from './validate.ts';

/** The nine fields of an alert update, the channel's two included. */
const ALERT_UPDATE_FIELDS: FieldSpec = obj({
  threshold: num(),
  interval: str(),
  thresholdType: str(),
  source: str(),
  dashboardId: str(),
  tileId: str(),
  channel: obj({ type: str(), webhookId: str() }),
  name: str(),
  message: str(),
});

/**
 * Hooks of a target that accepts only complete bodies, and alert intervals that its alerts used when it started (so
 * that an alert can always be put back).
 */
export function strictBodies(store: Pick<Store, 'alerts'>): Hooks {
  const known = Object.freeze([...new Set([...store.alerts.values()].map((alert) => alert.interval))].sort());
  return {
    review: (ctx, problems) => {
      const found = [...missing(ctx), ...(ctx.operation === 'updateAlert' ? unknownInterval(ctx.input, known) : [])];
      return found.length === 0 ? problems : [...problems, ...found];
    },
  };
}

function missing(ctx: HookContext): Problem[] {
  const body = ctx.input;
  if (!isObject(body)) return [];
  const paths =
    ctx.operation === 'createPipe'
      ? pipeFields(body, CREATE_PIPE_SPEC, CREATE_SOURCE_SPECS)
      : ctx.operation === 'updatePipe'
        ? pipeFields(body, UPDATE_PIPE_SPEC, UPDATE_SOURCE_SPECS)
        : ctx.operation === 'createKey'
          ? absentFields(KEY_SPEC, body, '')
          : ctx.operation === 'updateAlert'
            ? absentFields(ALERT_UPDATE_FIELDS, body, '')
            : [];
  return paths.map((path) =>
    problem(path, 'required', `${path} is required: this target accepts only complete bodies (every documented field)`),
  );
}

function pipeFields(body: Json, spec: FieldSpec, sources: Readonly<Record<string, FieldSpec>>): string[] {
  const source = isObject(body) ? body.source : undefined;
  const kinds = isObject(source) ? SOURCE_KINDS.filter((kind) => source[kind] !== undefined) : [];
  const kindFields = isObject(source) && kinds.length === 0 ? [`source.(${SOURCE_KINDS.join('|')})`] : [];
  return [
    ...absentFields(spec, body, ''),
    ...kindFields,
    ...kinds.flatMap((kind) => {
      const kindSpec = sources[kind];
      return kindSpec ? absentFields(kindSpec, isObject(source) ? source[kind] : undefined, `source.${kind}`) : [];
    }),
  ];
}

function unknownInterval(input: Json | undefined, known: readonly string[]): Problem[] {
  const interval = isObject(input) ? input.interval : undefined;
  if (typeof interval !== 'string') return [];
  return known.includes(interval)
    ? []
    : [problem('interval', 'invalid', `interval must be one of the intervals this target uses: ${known.join(', ')}`)];
}
