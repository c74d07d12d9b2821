import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { STRICT_SCOPE, type ComposedHooks, type HookContext, type Outgoing } from './hooks.ts';
import { isJsonContentType, jsonOutgoing, parseJsonBody, readBody, writeOutgoing } from './http.ts';
import type { Json, JsonObject } from './json.ts';
import { problem, statusOf, type Problem } from './problem.ts';
import type { ReferenceApi } from './reference-api.ts';
import { matchRoute, type Call } from './route.ts';
import type { Store } from './store.ts';
import { usageInput } from './usage.ts';

/** Everything one API's request listener needs. */
export interface PipelineOptions {
  readonly api: ReferenceApi;
  readonly store: Store;
  readonly hooks: ComposedHooks;
  /** Numbers requests across both APIs of one target. */
  readonly nextSequence: () => number;
  /** Runs a function later; the target cancels what is pending when it closes. */
  readonly schedule: (delayMs: number, run: () => void) => void;
}

/** Builds the request listener of one API: route, authenticate, check, apply, wrap, and let hooks intervene. */
export function createRequestListener(options: PipelineOptions): RequestListener {
  return (req, res) => {
    handle(options, req, res).catch((error: unknown) => lastResort(res, error));
  };
}

async function handle(options: PipelineOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { api, hooks, store } = options;
  const sequence = options.nextSequence();
  const url = new URL(req.url ?? '/', 'http://reference.invalid');
  const method = req.method ?? 'GET';
  const match = matchRoute(api.routes, method, url.pathname);
  const operation = match.kind === 'route' ? match.route.operation : undefined;
  const bare: HookContext = {
    api: api.name,
    operation,
    params: match.kind === 'route' ? match.params : {},
    sequence,
    input: undefined,
  };
  const read = await readBody(req);
  const send = (ctx: HookContext, outgoing: Outgoing): void => deliver(options, ctx, req, res, outgoing);
  const refuse = (ctx: HookContext, status: number, message: string, extra: Partial<Outgoing> = {}): void =>
    send(ctx, errorOutgoing(options, ctx, status, message, extra));

  const gated = hooks.gate(bare);
  if (gated !== undefined) return send(bare, gated);
  if (read.kind === 'too-large') return refuse(bare, 413, 'request body exceeds 1 MiB');
  if (match.kind === 'none') return refuse(bare, 404, `no operation at ${method} ${url.pathname}`);
  if (match.kind === 'method') {
    return refuse(bare, 405, `${method} is not allowed on ${url.pathname}`, {
      headers: { 'content-type': 'application/json; charset=utf-8', allow: match.allowed.join(', ') },
    });
  }
  const now = new Date();
  const verdict = hooks.authorize(bare, api.verify(req.headers.authorization, store, now));
  if (!verdict.accepted) {
    const message = verdict.scheme === 'none' ? 'credentials are required' : 'credentials are not valid for this API';
    return refuse(bare, 401, message, {
      headers: { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': api.challenge },
    });
  }

  const route = match.route;
  let body: Json | undefined;
  let problems: readonly Problem[] = [];
  if (route.hasBody) {
    if (!isJsonContentType(req.headers['content-type'])) {
      problems = [problem('', 'content-type', 'Content-Type must be application/json', 415)];
    } else {
      ({ value: body, problems } = parseJsonBody(read.bytes, hooks.parse));
    }
  }
  if (route.hasBody && problems.length === 0) body = hooks.read({ ...bare, input: body }, body);
  const input = route.hasBody ? body : operation === 'getUsageCost' ? usageInput(url.searchParams) : undefined;
  const ctx: HookContext = { ...bare, input };
  const call: Call = {
    params: match.params,
    query: url.searchParams,
    body,
    store,
    // Credentials that a fault accepts without naming a tenant act as the run's.
    principal: { organizationId: verdict.organizationId ?? store.organizationId, team: verdict.team ?? store.team },
    scope: hooks.scope(ctx, STRICT_SCOPE),
    now,
    persist: hooks.persists(ctx, true),
  };
  if (problems.length === 0) problems = route.check(call);
  problems = hooks.review(ctx, problems);
  if (problems.length > 0) return send(ctx, rejection(options, ctx, problems));

  const outcome = await hooks.apply(ctx, () => route.apply(call));
  if (outcome.kind === 'rejected') return send(ctx, rejection(options, ctx, outcome.problems));
  const result = hooks.result(ctx, outcome.result, outcome.previous);
  if (!api.enveloped) return send(ctx, jsonOutgoing(200, result));
  const envelope = hooks.envelope(ctx, { status: 200, requestId: hooks.requestId(ctx, randomUUID(), true), result });
  return send(ctx, jsonOutgoing(200, envelope));
}

function rejection(options: PipelineOptions, ctx: HookContext, problems: readonly Problem[]): Outgoing {
  const message = problems.map((p) => p.message).join('; ');
  return errorOutgoing(options, ctx, statusOf(problems), message, { problems });
}

function errorOutgoing(
  options: PipelineOptions,
  ctx: HookContext,
  status: number,
  message: string,
  extra: Partial<Outgoing>,
): Outgoing {
  const body: JsonObject = options.api.enveloped
    ? { status, requestId: options.hooks.requestId(ctx, randomUUID(), false), error: message }
    : { message };
  return jsonOutgoing(status, body, { message, ...extra });
}

function deliver(
  options: PipelineOptions,
  ctx: HookContext,
  req: IncomingMessage,
  res: ServerResponse,
  original: Outgoing,
): void {
  const outgoing = options.hooks.response(ctx, original);
  if (outgoing.delivery === 'hang') return;
  if (outgoing.delivery === 'reset') {
    req.socket.destroy();
    return;
  }
  if (outgoing.delayMs <= 0) {
    writeOutgoing(res, outgoing);
    return;
  }
  options.schedule(outgoing.delayMs, () => {
    if (res.destroyed) return;
    try {
      writeOutgoing(res, outgoing);
    } catch (error) {
      lastResort(res, error);
    }
  });
}

function lastResort(res: ServerResponse, error: unknown): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  const reason = error instanceof Error ? error.message : String(error);
  writeOutgoing(res, jsonOutgoing(500, { status: 500, error: `internal error: ${reason}` }));
}
