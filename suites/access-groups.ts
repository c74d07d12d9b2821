import { randomUUID } from 'node:crypto';
import { API_LIST, APIS } from '../apis/index.ts';
import { authorizationHeader, otherCredentialsIn, otherTenantSettings, targetOf } from '../apis/descriptor.ts';
import type { RunConfig } from '../settings/config.ts';
import type { ApiName } from '../spec/spec.ts';
import { OTHER_TENANT_PARTS, PATH_SCOPE_PARTS } from '../rules/access.ts';
import type { ProbeGroup } from '../engine/suite-types.ts';
import { reject } from '../engine/probe.ts';
import type { AuthTarget } from './auth-group.ts';

const PATH_SCOPED = 'access.path-scoped';
const OTHER_TENANT = 'access.other-tenant';

/** Why `access.other-tenant` is not judged without a second identity: the settings that give one. */
export const NO_SECOND_IDENTITY = `no second identity configured: set ${API_LIST.map((api) => {
  const ids = api.settings.other?.ids ?? [];
  const credentials = otherTenantSettings(api).filter((setting) => !ids.some((id) => id.field === setting.field));
  return [...ids, ...credentials].map((setting) => setting.variable).join(', ');
})
  .filter(Boolean)
  .join(' / ')}`;

/** The `Authorization` header of another tenant of an API, or undefined when the run has none. */
export function otherAuthorization(api: ApiName, config: RunConfig): string | undefined {
  const descriptor = APIS[api];
  const credentials = otherCredentialsIn(descriptor, targetOf(descriptor, config));
  return credentials && authorizationHeader(descriptor.auth.scheme, credentials);
}

/** Why a run cannot send another tenant's requests to an API (no second identity), or undefined when it can. */
export const needsOtherTenant =
  (api: ApiName) =>
  (config: RunConfig): string | undefined =>
    config.reference || otherAuthorization(api, config) ? undefined : NO_SECOND_IDENTITY;

/** An operation whose access is probed: the request the run's own credentials would have had accepted. */
export interface AccessTarget extends AuthTarget {
  /** Which of the path's ids the path-scope probes replace with fresh uuids: the organization, or the service too. */
  readonly scope?: 'organization' | 'service';
}

/**
 * Per target operation, a probe group of `access.path-scoped` (its request under another organization, and another
 * service where `scope` says so, each to be refused) and one of `access.other-tenant` (its request with the other
 * tenant's credentials, to be refused; not judged without them).
 */
export function accessGroups(targets: readonly AccessTarget[]): ProbeGroup[] {
  return targets.flatMap((target): ProbeGroup[] => {
    const after = target.after ? { after: target.after } : {};
    const requires = target.requires ? { requires: target.requires } : {};
    const moves = target.scope
      ? [
          { part: PATH_SCOPE_PARTS.organization, param: 'organizationId' },
          ...(target.scope === 'service' ? [{ part: PATH_SCOPE_PARTS.service, param: 'serviceId' }] : []),
        ]
      : [];
    const scoped: ProbeGroup[] =
      moves.length === 0
        ? []
        : [
            {
              name: `path scope: ${target.operationId}`,
              operations: [target.operationId],
              feeds: moves.map(({ part }) => `${PATH_SCOPED}#${part}`),
              ...after,
              ...requires,
              estimate: () => moves.length,
              async run(context) {
                const request = target.request(context);
                if ('unable' in request) return context.unable(request.unable);
                await Promise.all(
                  moves.map(({ part, param }) =>
                    context.send(target.operationId, {
                      ...request,
                      params: { ...request.params, [param]: randomUUID() },
                      probe: reject(`the request under ${part} (a fresh ${param})`, PATH_SCOPED, { part }),
                    }),
                  ),
                );
              },
            },
          ];
    return [
      ...scoped,
      {
        name: `another tenant: ${target.operationId}`,
        operations: [target.operationId],
        feeds: [`${OTHER_TENANT}#${OTHER_TENANT_PARTS.refused}`],
        requires: (config) => target.requires?.(config) ?? needsOtherTenant(target.api)(config),
        ...after,
        estimate: () => 1,
        async run(context) {
          const request = target.request(context);
          if ('unable' in request) return context.unable(request.unable);
          await context.send(target.operationId, {
            ...request,
            authorization: otherAuthorization(target.api, context.config) ?? null,
            probe: reject("the run's request with another tenant's credentials", OTHER_TENANT, {
              part: OTHER_TENANT_PARTS.refused,
            }),
          });
        },
      },
    ];
  });
}
