import type { RecordedRequest } from './exchange.ts';
import type { ApiName } from './spec.ts';

/** The run's real credentials, which a reproduction names by their environment variables only. */
export interface CurlCredentials {
  readonly managementKeyId?: string;
  readonly managementKeySecret?: string;
  readonly alertsToken?: string;
}

/** How a reproduction treats what the request carried: the run's credentials, and other secrets to mask. */
export interface CurlOptions {
  readonly credentials: CurlCredentials;
  /** Masks every real secret in a text (a returned `keySecret`, say) and leaves values the harness generated as they are. */
  readonly redact: (text: string) => string;
}

/** Environment variables that stand for each API's credentials in a reproduction. */
const CREDENTIALS: Readonly<Record<ApiName, string>> = Object.freeze({
  management: '-u "$MANAGEMENT_KEY_ID:$MANAGEMENT_KEY_SECRET"',
  alerts: '-H "Authorization: Bearer $ALERTS_TOKEN"',
});

/** Headers curl sets on its own, or that do not change what the target sees. */
const LEFT_OUT = new Set(['user-agent', 'authorization']);

/**
 * Builds a curl command that sends the request as it was sent (unredacted `request`): the run's credentials
 * become environment variable references, a probe's own wrong credentials and the values the harness generated
 * are shown as sent, and any other secret is masked by `options.redact`.
 */
export function curlCommand(api: ApiName, request: RecordedRequest, options: CurlOptions): string {
  const { redact } = options;
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(redact(request.url))];
  if (request.auth === 'default') parts.push(CREDENTIALS[api]);
  else if (request.auth === 'custom' && request.headers.authorization !== undefined) parts.push(authorization(request.headers.authorization, options));
  for (const [name, value] of Object.entries(request.headers)) {
    if (LEFT_OUT.has(name.toLowerCase())) continue;
    parts.push('-H', quote(`${name}: ${redact(value)}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(redact(request.body)));
  return parts.join(' ');
}

/** A probe's own `Authorization` header, with the run's credentials in it named by their variables. */
function authorization(header: string, { credentials, redact }: CurlOptions): string {
  const basic = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(header);
  const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : undefined;
  if (decoded?.includes(':') && Buffer.from(decoded, 'utf8').toString('base64') === basic![1]) {
    const colon = decoded.indexOf(':');
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const named = (value: string, real: string | undefined, variable: string): string => (real !== undefined && value === real ? variable : doubleQuoted(redact(value)));
    return `-u "${named(user, credentials.managementKeyId, '$MANAGEMENT_KEY_ID')}:${named(password, credentials.managementKeySecret, '$MANAGEMENT_KEY_SECRET')}"`;
  }
  const bearer = /^Bearer (.+)$/.exec(header);
  if (bearer && credentials.alertsToken !== undefined && bearer[1] === credentials.alertsToken) return CREDENTIALS.alerts;
  return ['-H', quote(`authorization: ${redact(header)}`)].join(' ');
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Escapes a literal for the inside of a double-quoted shell word. */
function doubleQuoted(value: string): string {
  return value.replace(/[\\"$`]/g, (c) => `\\${c}`);
}
