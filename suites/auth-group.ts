import { API_LIST, APIS } from '../apis/index.ts';
import { type AuthScheme, authorizationHeader } from '../apis/descriptor.ts';
import type { ApiName } from '../spec/spec.ts';
import { CREDENTIAL_WAYS } from '../rules/request.ts';
import type { ProbeGroup, ProbeRequest, SuiteContext } from '../engine/suite-types.ts';
import { randomToken, reject } from '../engine/probe.ts';

/** A request that would be accepted with the right credentials, or why there is none (no resource known to exist). */
export type AuthRequest = Omit<ProbeRequest, 'probe' | 'authorization'> | { readonly unable: string };

/**
 * An operation to send credential probes to, and the request to send: only to a resource known to exist, so that a 404
 * cannot pass for a rejection.
 */
export interface AuthTarget {
  readonly operationId: string;
  readonly api: ApiName;
  readonly request: (context: SuiteContext) => AuthRequest;
  /** Groups of the suite that must run first (the one that creates or finds the resource). */
  readonly after?: readonly string[];
  /** Why no request can be built with these settings (a setting the user left out), so that the plan skips it. */
  readonly requires?: ProbeGroup['requires'];
}

/**
 * An `Authorization` header in a scheme with a wrong secret: for `basic`, the run's own user of an API with that scheme
 * (when it has one), so that only the secret is wrong.
 */
function wrongAuthorization(scheme: AuthScheme, context: SuiteContext): string {
  if (scheme === 'bearer') return authorizationHeader(scheme, { token: randomToken('wrong-') });
  const own = API_LIST.filter((api) => api.auth.scheme === 'basic')
    .map((api) => api.credentialsOf(context.config))
    .find((credentials) => credentials !== undefined && 'user' in credentials);
  return authorizationHeader(scheme, {
    user: own && 'user' in own ? own.user : randomToken('key-'),
    password: randomToken('wrong-'),
  });
}

/**
 * The ways a request can lack the right credentials, each with the authorization it sends: none, its API's scheme with
 * a wrong secret, another API's scheme.
 */
function wrongCredentials(
  api: ApiName,
  context: SuiteContext,
): Array<{ way: (typeof CREDENTIAL_WAYS)[number]; authorization: string | null }> {
  const [none, wrong, otherScheme] = CREDENTIAL_WAYS;
  const own = APIS[api].auth.scheme;
  const other =
    API_LIST.map((descriptor) => descriptor.auth.scheme).find((scheme) => scheme !== own) ??
    (own === 'basic' ? 'bearer' : 'basic');
  return [
    { way: none, authorization: null },
    { way: wrong, authorization: wrongAuthorization(own, context) },
    { way: otherScheme, authorization: wrongAuthorization(other, context) },
  ];
}

/**
 * One probe group per target operation (so that each has its operation's class): its request sent without the right
 * credentials, each way.
 */
export function authGroups(targets: readonly AuthTarget[]): ProbeGroup[] {
  return targets.map((target) => ({
    name: `credentials: ${target.operationId}`,
    operations: [target.operationId],
    feeds: CREDENTIAL_WAYS.map((way) => `auth.required#${way}`),
    ...(target.after ? { after: target.after } : {}),
    ...(target.requires ? { requires: target.requires } : {}),
    estimate: () => CREDENTIAL_WAYS.length,
    async run(context) {
      const request = target.request(context);
      if ('unable' in request) {
        context.unable(request.unable);
        return;
      }
      await Promise.all(
        wrongCredentials(target.api, context).map(({ way, authorization }) =>
          context.send(target.operationId, {
            ...request,
            authorization,
            probe: reject(way, 'auth.required', { part: way }),
          }),
        ),
      );
    },
  }));
}

/** Bodies that are not a JSON object: broken JSON, and a JSON string. */
const MALFORMED_BODIES = Object.freeze([
  { label: 'malformed JSON', body: '{"name": ' },
  { label: 'a JSON string body', body: '"just a string"' },
]);

/**
 * A probe group per target operation that sends malformed JSON to it (to a resource known to exist, where it names
 * one).
 */
export function malformedJsonGroups(
  targets: readonly {
    operationId: string;
    params?: (context: SuiteContext) => Record<string, string> | { unable: string };
    after?: readonly string[];
  }[],
): ProbeGroup[] {
  return targets.map((target) => ({
    name: `malformed JSON: ${target.operationId}`,
    operations: [target.operationId],
    ...(target.after ? { after: target.after } : {}),
    estimate: () => MALFORMED_BODIES.length,
    async run(context) {
      const params = target.params?.(context);
      if (params && 'unable' in params) {
        context.unable(params.unable as string);
        return;
      }
      await Promise.all(
        MALFORMED_BODIES.map(({ label, body }) =>
          context.send(target.operationId, {
            body,
            ...(params ? { params: params as Record<string, string> } : {}),
            probe: reject(label),
          }),
        ),
      );
    },
  }));
}
