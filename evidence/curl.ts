import { API_LIST, APIS } from '../apis/index.ts';
import type { ApiDescriptor, CredentialSettings, Credentials } from '../apis/descriptor.ts';
import type { RecordedRequest } from '../transport/exchange.ts';
import { type NetworkSettings, PASSPHRASE_VARIABLE } from '../settings/network-settings.ts';
import { REDACTED } from '../secrets/redaction.ts';
import type { ApiName } from '../spec/spec.ts';

/**
 * The run's real credentials of each API it targets, which a reproduction names by their environment variables only.
 */
export type CurlCredentials = Readonly<Partial<Record<ApiName, Credentials>>>;

/** How a reproduction treats what the request carried: the run's credentials, and other secrets to mask. */
export interface CurlOptions {
  readonly credentials: CurlCredentials;
  /** The other tenants' credentials (`OTHER_*`), which a reproduction names by their variables too. */
  readonly others?: CurlCredentials;
  /**
   * Masks every real secret in a text (a returned `keySecret`, say) and leaves values the harness generated as they
   * are.
   */
  readonly redact: (text: string) => string;
  /** The run's certificate files, which an https reproduction passes to curl as the run used them. */
  readonly network?: NetworkSettings;
  /**
   * The answer came in a content coding (a target may compress unasked): curl is told `--compressed`, so that it
   * shows the body decoded, as the run judged it, rather than its compressed bytes, and `-H 'Accept-Encoding:'`, so
   * that it still sends what the run sent (no Accept-Encoding, which `--compressed` alone adds).
   */
  readonly compressed?: boolean;
}

/** The variables of an API's own credentials, or of its other tenant's (`OTHER_*`). */
const variablesOf = ({ settings }: ApiDescriptor, other: boolean): CredentialSettings | undefined =>
  other ? settings.other?.credentials : settings.credentials;

/** The curl arguments that send credentials as references to their environment variables. */
function credentialArguments(variables: CredentialSettings): string {
  return 'token' in variables
    ? `-H "Authorization: Bearer $${variables.token.variable}"`
    : `-u "$${variables.user.variable}:$${variables.password.variable}"`;
}

/** The run's credentials of every API, its own then its other tenant's, each with the variables that name them. */
function namedCredentials({
  credentials,
  others,
}: CurlOptions): { real: Credentials; variables: CredentialSettings }[] {
  return [false, true].flatMap((other) =>
    API_LIST.flatMap((api) => {
      const real = (other ? others : credentials)?.[api.name];
      const variables = variablesOf(api, other);
      return real && variables ? [{ real, variables }] : [];
    }),
  );
}

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
  if (options.network && request.url.startsWith('https:')) parts.push(...tlsArguments(options.network));
  if (request.auth === 'default') parts.push(credentialArguments(APIS[api].settings.credentials));
  else if (request.auth === 'custom' && request.headers.authorization !== undefined)
    parts.push(authorization(request.headers.authorization, options));
  for (const [name, value] of Object.entries(request.headers)) {
    if (LEFT_OUT.has(name.toLowerCase()) && !request.gateway?.includes(name)) continue;
    // A header the run's settings added is a secret, short or not: the reader gives it as they gave it to the run.
    parts.push('-H', quote(`${name}: ${request.gateway?.includes(name) ? REDACTED : redact(value)}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(redact(request.body)));
  if (options.compressed) parts.push('--compressed', '-H', quote('Accept-Encoding:'));
  return parts.join(' ');
}

/**
 * `--ca` as `--cacert` (curl then trusts that file alone; proxies need nothing, curl reads the same variables), the
 * client certificate and key as given, and the key's passphrase as a reference to its variable.
 */
function tlsArguments({ ca, client }: NetworkSettings): string[] {
  return [
    ...(ca ? ['--cacert', quote(ca.file)] : []),
    ...(client ? ['--cert', quote(client.certFile), '--key', quote(client.keyFile)] : []),
    ...(client?.passphrase ? ['--pass', `"$${PASSPHRASE_VARIABLE}"`] : []),
  ];
}

/**
 * A shell expression, for the inside of a double-quoted word, that gives `value` from the run's credentials (`names`:
 * each real value with the variable that holds it): the value itself, one written around it (a space before or after,
 * a letter more), the value less its last character, or with the case of each ASCII letter turned; otherwise the value
 * as sent, redacted. So a wrong form of a real secret is sent byte for byte, and the secret itself never printed.
 */
function expressionOf(value: string, names: readonly { real: string; variable: string }[], redact: Redact): string {
  for (const { real, variable } of names) {
    if (real === '') continue;
    if (value === real) return `$${variable}`;
    const at = value.indexOf(real);
    if (at >= 0) {
      const [before, after] = [value.slice(0, at), value.slice(at + real.length)];
      return `${expressionOf(before, names, redact)}\${${variable}}${expressionOf(after, names, redact)}`;
    }
    if (value === real.slice(0, -1)) return `\${${variable}%?}`;
    if (/^[\x20-\x7e]*$/.test(real) && value !== real && value === turnedAscii(real))
      return `$(printf %s "$${variable}" | tr 'a-zA-Z' 'A-Za-z')`;
  }
  return doubleQuoted(redact(value));
}

/** A text with the case of each ASCII letter turned. */
function turnedAscii(text: string): string {
  return text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

type Redact = (text: string) => string;

/** Every real credential value of the run with the variable that holds it, the longest first. */
function credentialNames(options: CurlOptions): { real: string; variable: string }[] {
  return namedCredentials(options)
    .flatMap(({ real, variables }) => {
      if ('token' in real && 'token' in variables) return [{ real: real.token, variable: variables.token.variable }];
      if ('user' in real && 'user' in variables)
        return [
          { real: real.user, variable: variables.user.variable },
          { real: real.password, variable: variables.password.variable },
        ];
      return [];
    })
    .sort((a, b) => b.real.length - a.real.length);
}

/**
 * A probe's own `Authorization` header, sent byte for byte, with the run's credentials in it (and the wrong forms the
 * probes write from them) named by their variables.
 */
function authorization(header: string, options: CurlOptions): string {
  const { redact } = options;
  const names = credentialNames(options);
  const named = namedCredentials(options);
  const basic = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(header);
  const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : undefined;
  const exact = decoded !== undefined && Buffer.from(decoded, 'utf8').toString('base64') === basic![1];
  if (exact && decoded.includes(':')) {
    const colon = decoded.indexOf(':');
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    return `-u "${expressionOf(user, names, redact)}:${expressionOf(password, names, redact)}"`;
  }
  // No colon: curl's -u would ask for a password, so the header is written whole, its base64 made by the shell.
  if (exact)
    return `-H "Authorization: Basic $(printf %s "${expressionOf(decoded, names, redact)}" | base64 | tr -d '\\n')"`;
  const bearer = /^Bearer (.+)$/.exec(header);
  const owner = bearer && named.find(({ real }) => 'token' in real && real.token === bearer[1]);
  if (owner) return credentialArguments(owner.variables);
  const derived = bearer && expressionOf(bearer[1]!, names, redact);
  // A form written from the run's token (another case, a letter less or more): the shell writes it from $ALERTS_TOKEN.
  if (derived && derived !== doubleQuoted(redact(bearer[1]!))) return `-H "Authorization: Bearer ${derived}"`;
  return ['-H', quote(`authorization: ${redact(header)}`)].join(' ');
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Escapes a literal for the inside of a double-quoted shell word. */
function doubleQuoted(value: string): string {
  return value.replace(/[\\"$`]/g, (c) => `\\${c}`);
}
