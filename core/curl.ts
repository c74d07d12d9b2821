import type { RecordedRequest } from './exchange.ts';
import type { ApiName } from './spec.ts';

/** Environment variables that stand for each API's credentials in a reproduction. */
const CREDENTIALS: Readonly<Record<ApiName, string>> = Object.freeze({
  management: '-u "$MANAGEMENT_KEY_ID:$MANAGEMENT_KEY_SECRET"',
  alerts: '-H "Authorization: Bearer $ALERTS_TOKEN"',
});

/** Builds a curl command from a redacted request; the API's own credentials become environment variables. */
export function curlCommand(api: ApiName, request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
  if (request.auth === 'default') parts.push(CREDENTIALS[api]);
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && request.auth === 'default') continue;
    if (name === 'user-agent' || name === 'accept') continue;
    parts.push('-H', quote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
