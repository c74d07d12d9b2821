import type { AuthVerdict, OperationId, ScopePolicy } from './hooks.ts';
import type { Json, JsonObject } from './json.ts';
import type { Problem } from './problem.ts';
import type { Store } from './store.ts';

/** What a route handler receives: path parameters, query, parsed body and the target's state. */
export interface Call {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: Json | undefined;
  readonly store: Store;
  /** Whom the credentials name: the key's organization, the token's team. */
  readonly principal: Pick<AuthVerdict, 'organizationId' | 'team'>;
  /** The scope checks to make. */
  readonly scope: ScopePolicy;
  readonly now: Date;
  /** Whether an accepted change is to be stored (false only under a fault). */
  readonly persist: boolean;
}

/** The outcome of applying an accepted request: a result, or problems found only while applying it. */
export type RouteOutcome =
  | { readonly kind: 'ok'; readonly result: JsonObject; readonly previous?: JsonObject }
  | { readonly kind: 'rejected'; readonly problems: readonly Problem[] };

/** One operation: where it lives, how its request is checked, and how it is applied. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** Path segments; a segment starting with `:` is a parameter. */
  readonly path: readonly string[];
  readonly operation: OperationId;
  /** Whether the request carries a JSON body. */
  readonly hasBody: boolean;
  /** Every problem of the request, path parameters included. */
  readonly check: (call: Call) => Problem[];
  /** Applies a request whose problems were all waived or absent. */
  readonly apply: (call: Call) => RouteOutcome;
}

/** The result of matching a path against routes: a route, a path with other methods only, or nothing. */
export type Match =
  | { readonly kind: 'route'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method'; readonly allowed: readonly string[] }
  | { readonly kind: 'none' };

/** Finds the route for a method and a URL path. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): Match {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchPath(route.path, segments);
    if (params === undefined) continue;
    if (route.method === method) return { kind: 'route', route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
}

function matchPath(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index];
    if (part.startsWith(':')) {
      params[part.slice(1)] = decodeSegment(segment ?? '');
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** Decodes a path segment; a segment with a broken escape is kept as sent, and fails the id checks later. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    if (error instanceof URIError) return segment;
    throw error;
  }
}
