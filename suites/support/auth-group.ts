import type { ProbeGroup, ProbeRequest, SuiteContext } from './suite-types.ts';
import { randomToken, reject } from './probe.ts';

/** A request to an operation that would be accepted with the right credentials. */
export interface AuthTarget {
  readonly operationId: string;
  readonly api: 'management' | 'alerts';
  readonly request: (context: SuiteContext) => Omit<ProbeRequest, 'probe' | 'authorization'>;
}

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The ways a request can lack the right credentials: none, a wrong secret or token, the other API's scheme. */
function wrongCredentials(api: 'management' | 'alerts', context: SuiteContext): Array<{ label: string; authorization: string | null }> {
  const keyId = context.config.management?.keyId ?? randomToken('key-');
  return api === 'management'
    ? [
        { label: 'no credentials', authorization: null },
        { label: 'a wrong key secret', authorization: basic(keyId, randomToken('wrong-')) },
        { label: 'the alerts scheme (Bearer)', authorization: `Bearer ${randomToken('tok-')}` },
      ]
    : [
        { label: 'no credentials', authorization: null },
        { label: 'a wrong token', authorization: `Bearer ${randomToken('wrong-')}` },
        { label: 'the management scheme (Basic)', authorization: basic(keyId, randomToken('wrong-')) },
      ];
}

/** A probe group that sends each target request without the right credentials, each way. */
export function authGroup(targets: readonly AuthTarget[]): ProbeGroup {
  return {
    name: 'credentials',
    klass: 'read',
    operations: targets.map((t) => t.operationId),
    estimate: () => targets.reduce((n, t) => n + 3, 0),
    async run(context) {
      await Promise.all(targets.flatMap((target) => wrongCredentials(target.api, context).map(({ label, authorization }) =>
        context.send(target.operationId, { ...target.request(context), authorization, probe: reject(label, 'auth.required') }))));
    },
  };
}

/** Bodies that are not a JSON object: broken JSON, and a JSON string. */
const MALFORMED_BODIES = Object.freeze([{ label: 'malformed JSON', body: '{"name": ' }, { label: 'a JSON string body', body: '"just a string"' }]);

/** A probe group that sends malformed JSON to operations that take a body. */
export function malformedJsonGroup(targets: readonly { operationId: string; params?: (context: SuiteContext) => Record<string, string> }[]): ProbeGroup {
  return {
    name: 'malformed JSON',
    klass: 'read',
    operations: targets.map((t) => t.operationId),
    estimate: () => targets.length * MALFORMED_BODIES.length,
    async run(context) {
      await Promise.all(targets.flatMap((target) => MALFORMED_BODIES.map(({ label, body }) =>
        context.send(target.operationId, { body, ...(target.params ? { params: target.params(context) } : {}), probe: reject(label) }))));
    },
  };
}
