import type { Json, JsonObject } from './json.ts';
import type { Problem } from './problem.ts';

/** The two APIs the reference target serves. */
export type ApiName = 'management' | 'alerts';

/** The operations of both APIs, as hooks select them. */
export type OperationId =
  | 'createPipe'
  | 'updatePipe'
  | 'getPipeSettings'
  | 'changeServiceState'
  | 'createKey'
  | 'getUsageCost'
  | 'getBackup'
  | 'updateAlert'
  | 'listAlerts';

/** What a hook may know about the request being answered. */
export interface HookContext {
  readonly api: ApiName;
  /** The operation, or undefined when no route matched. */
  readonly operation: OperationId | undefined;
  /** The path parameters of the matched route (`pipeId`, `id`), empty when no route matched. */
  readonly params: Readonly<Record<string, string>>;
  /** 1-based position of this request among all requests the target has received. */
  readonly sequence: number;
  /** The parsed JSON body, or for a GET the query as an object; undefined when there is none. */
  readonly input: Json | undefined;
}

/** The outcome of checking the `Authorization` header. */
export interface AuthVerdict {
  readonly accepted: boolean;
  readonly scheme: 'none' | 'basic' | 'bearer' | 'other';
  /** For Basic: whether the key id names a known, usable key (whatever the secret). */
  readonly knownKey: boolean;
  /** For accepted Basic credentials: the organization of the key. */
  readonly organizationId?: string;
  /** For an accepted Bearer token: the team it belongs to. */
  readonly team?: string;
  /**
   * What the header carried, for a fault that checks it otherwise: Basic's user and secret (none without the colon), a
   * Bearer token as `secret`.
   */
  readonly presented?: { readonly user?: string; readonly secret: string | undefined };
}

/** How a request's scope is checked: each check the correct target makes, which a fault may turn off. */
export interface ScopePolicy {
  /** The path's organizationId must be a known organization; when off, any is taken as the key's own. */
  readonly organization: boolean;
  /** A key acts only on its own organization; when off, also on another known one. */
  readonly keyOrganization: boolean;
  /** A pipe is created and found only under its organization's service; when off, under any serviceId. */
  readonly pipeService: boolean;
  /** The backup is found only under its service; when off, under any serviceId. */
  readonly backupService: boolean;
  /** A token lists and updates its own team's alerts only; when off, every team's. */
  readonly team: boolean;
}

/** The scope checks of the correct target: all on. */
export const STRICT_SCOPE: ScopePolicy = Object.freeze({
  organization: true,
  keyOrganization: true,
  pipeService: true,
  backupService: true,
  team: true,
});

/** A response about to be sent; a string body is sent as is, any other body as JSON. */
export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Json | undefined;
  /** `hang` never answers, `reset` closes the connection without an answer. */
  readonly delivery: 'send' | 'hang' | 'reset';
  readonly delayMs: number;
  /** For a rejection, its reasons. */
  readonly problems?: readonly Problem[];
  /** For an error, a one-line message. */
  readonly message?: string;
}

/** The points where faults and modes change the target's behaviour; each is optional. */
export interface Hooks {
  /** Answers a request before it is processed (rate limiting), or lets it through with undefined. */
  readonly gate?: (ctx: HookContext) => Outgoing | undefined;
  /** Parses a request's JSON text; `parse` is the one before it (JSON.parse at first, as ordinary servers parse). */
  readonly parse?: (text: string, parse: (text: string) => Json) => Json;
  /**
   * Reads a parsed request body as a stack's data binding does before it is checked (scalars coerced to the field's
   * type, unknown fields dropped); `read` is the one before it.
   */
  readonly read?: (ctx: HookContext, body: Json | undefined) => Json | undefined;
  /** Revises the credential verdict. */
  readonly authorize?: (ctx: HookContext, verdict: AuthVerdict) => AuthVerdict;
  /** Revises how a request's scope (organization, service, team) is checked. */
  readonly scope?: (ctx: HookContext, policy: ScopePolicy) => ScopePolicy;
  /** Revises the problems found in a request (drop to accept, add to reject, throw to crash). */
  readonly review?: (ctx: HookContext, problems: readonly Problem[]) => readonly Problem[];
  /**
   * Applies an accepted request: `apply` changes the store at once and returns its outcome; a hook may await storage
   * before, between or after, as a target whose storage is remote does, or hold the request back (a lock).
   */
  readonly apply?: <T>(ctx: HookContext, apply: () => T) => T | Promise<T>;
  /** Whether an accepted change is stored. */
  readonly persists?: (ctx: HookContext, persists: boolean) => boolean;
  /** Rewrites a successful result; `previous` is the resource before a change, when there is one. */
  readonly result?: (ctx: HookContext, result: JsonObject, previous: JsonObject | undefined) => JsonObject;
  /** Chooses the request id of a management response. */
  readonly requestId?: (ctx: HookContext, requestId: string, success: boolean) => string;
  /** Rewrites a successful management envelope. */
  readonly envelope?: (ctx: HookContext, envelope: JsonObject) => JsonObject;
  /** Rewrites any response just before it is sent. */
  readonly response?: (ctx: HookContext, outgoing: Outgoing) => Outgoing;
}

/** The one place that consults enabled behaviours: every hook of the list, chained in order. */
export type ComposedHooks = { readonly [K in Exclude<keyof Hooks, 'parse'>]-?: NonNullable<Hooks[K]> } & {
  readonly parse: (text: string) => Json;
};

/** Chains a list of hooks into one set; a gate answers with the first list entry that answers. */
export function composeHooks(list: readonly Hooks[]): ComposedHooks {
  return Object.freeze({
    gate: (ctx) => {
      for (const hooks of list) {
        const answer = hooks.gate?.(ctx);
        if (answer !== undefined) return answer;
      }
      return undefined;
    },
    parse: list.reduce<(text: string) => Json>(
      (parse, hooks) => {
        const wrap = hooks.parse;
        return wrap ? (text) => wrap(text, parse) : parse;
      },
      JSON.parse as (text: string) => Json,
    ),
    read: (ctx, body) => list.reduce((b, hooks) => (hooks.read ? hooks.read(ctx, b) : b), body),
    authorize: (ctx, verdict) => list.reduce((v, hooks) => hooks.authorize?.(ctx, v) ?? v, verdict),
    scope: (ctx, policy) => list.reduce((p, hooks) => hooks.scope?.(ctx, p) ?? p, policy),
    review: (ctx, problems) => list.reduce((p, hooks) => hooks.review?.(ctx, p) ?? p, problems),
    apply: <T>(ctx: HookContext, apply: () => T): Promise<T> => {
      let run = (): T | Promise<T> => apply();
      for (const hooks of list) {
        const wrap = hooks.apply;
        const inner = run;
        if (wrap) run = () => wrap(ctx, inner) as T | Promise<T>;
      }
      return Promise.resolve(run());
    },
    persists: (ctx, persists) => list.reduce((p, hooks) => hooks.persists?.(ctx, p) ?? p, persists),
    result: (ctx, result, previous) => list.reduce((r, hooks) => hooks.result?.(ctx, r, previous) ?? r, result),
    requestId: (ctx, requestId, success) =>
      list.reduce((id, hooks) => hooks.requestId?.(ctx, id, success) ?? id, requestId),
    envelope: (ctx, envelope) => list.reduce((e, hooks) => hooks.envelope?.(ctx, e) ?? e, envelope),
    response: (ctx, outgoing) => list.reduce((o, hooks) => hooks.response?.(ctx, o) ?? o, outgoing),
  });
}
