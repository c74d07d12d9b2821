import { API_LIST, type ApiName } from '../apis/index.ts';
import { HarnessError } from '../core/errors.ts';

/** Headers a run adds to every request of each API (a gateway's key, a tenant header), names in lower case. */
export type RunHeaders = { readonly [A in ApiName]?: Readonly<Record<string, string>> };

/** Headers as a caller gives them: an object of names to values, or `Name: value` lines (an array, or one text). */
export type HeadersGiven = Readonly<Record<string, string>> | readonly string[] | string;

/** An HTTP field name (RFC 9110 `token`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A control character a field value may not hold (any but horizontal tab): CR and LF would split the request. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Header names a run may not be given, and why: each replaces what the harness sends itself or breaks HTTP. */
const REFUSED: Readonly<Record<string, string>> = Object.freeze({
  authorization: "would replace the APIs' own credentials: set them in their variables",
  'proxy-authorization': "is the proxy's: give the proxy's user and password in HTTPS_PROXY",
  host: 'is set from the base URL: point the base URL at the host instead',
  'content-length': 'is set from each body',
  'transfer-encoding': 'is set from each body',
  connection: 'is managed by the HTTP client',
  'keep-alive': 'is managed by the HTTP client',
  upgrade: 'is managed by the HTTP client',
  te: 'is managed by the HTTP client',
  expect: 'is managed by the HTTP client',
  'content-type': 'is set by each probe, some of which send a wrong one on purpose',
  accept: 'is set by the harness',
});

/** A setting of headers: its key in a settings object, its flag, its variable, and the API it is for (else both). */
export interface HeaderSetting {
  readonly key: 'headers' | `${ApiName}Headers`;
  readonly flag: string;
  readonly variable: string;
  readonly api?: ApiName;
}

/** The settings of headers: `--header` for both APIs, and `--<api>-header` for one. */
export const HEADER_SETTINGS: readonly HeaderSetting[] = Object.freeze([
  { key: 'headers', flag: 'header', variable: 'CONFORMANCE_HEADERS' },
  ...API_LIST.map((api) => ({
    key: `${api.name}Headers` as const,
    flag: `${api.name}-header`,
    variable: `CONFORMANCE_${api.name.toUpperCase()}_HEADERS`,
    api: api.name,
  })),
]);

/** A settings key of headers: `headers`, or `<api>Headers`. */
export type HeaderKey = HeaderSetting['key'];

/**
 * The headers given under one setting, checked: names in lower case, each once; a refused name, a name that is no HTTP
 * token, a value that is empty or holds a control character, is a CONFIG_INVALID error naming the setting (`name`) and
 * the header, never its value.
 */
export function parseHeaders(given: unknown, name: string): Readonly<Record<string, string>> {
  const pairs = headerPairs(given, name);
  const headers: Record<string, string> = {};
  for (const [rawName, value] of pairs) {
    const header = rawName.trim();
    const lower = header.toLowerCase();
    const bad = (why: string): HarnessError =>
      new HarnessError('CONFIG_INVALID', `${name}: the header ${JSON.stringify(header)} ${why}.`);
    if (!TOKEN.test(header)) throw bad("is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)");
    const refused = REFUSED[lower];
    if (refused) throw bad(refused);
    if (lower in headers) throw bad('is given twice');
    if (CONTROL.test(value)) throw bad('has a value with a control character (CR or LF would split the request)');
    const trimmed = value.trim();
    if (trimmed === '')
      throw bad('has an empty value (in GitHub Actions, a secret that is not defined comes as an empty one)');
    headers[lower] = trimmed;
  }
  return headers;
}

/** `[name, value]` pairs of headers given in any of their forms; a line without a colon names the setting. */
function headerPairs(given: unknown, name: string): [string, string][] {
  if (typeof given === 'string' || (Array.isArray(given) && given.every((line) => typeof line === 'string'))) {
    const lines = (typeof given === 'string' ? given.split(/\r?\n/) : (given as string[])).filter((l) => l.trim());
    return lines.map((line) => {
      const colon = line.indexOf(':');
      if (colon <= 0) {
        const shown = colon < 0 ? 'a line without a colon' : 'a line without a name before its colon';
        throw new HarnessError('CONFIG_INVALID', `${name} takes \`Name: value\` lines, and it has ${shown}.`);
      }
      return [line.slice(0, colon), line.slice(colon + 1)];
    });
  }
  if (typeof given === 'object' && given !== null && !Array.isArray(given)) {
    return Object.entries(given).map(([header, value]) => {
      if (typeof value !== 'string')
        throw new HarnessError('CONFIG_INVALID', `${name}: the header ${JSON.stringify(header)} must be a string.`);
      return [header, value];
    });
  }
  throw new HarnessError(
    'CONFIG_INVALID',
    `${name} takes headers as an object of names to values, or as \`Name: value\` lines.`,
  );
}

/** Each API's headers: those given for both, with each API's own on top (the same name given for one API wins). */
export function runHeaders(
  given: Readonly<Partial<Record<HeaderKey, Readonly<Record<string, string>>>>>,
  apis: readonly ApiName[],
): RunHeaders {
  return Object.fromEntries(
    apis.flatMap((api) => {
      const headers = { ...given.headers, ...given[`${api}Headers`] };
      return Object.keys(headers).length > 0 ? [[api, headers]] : [];
    }),
  );
}

/** Every header value of a run: secrets, redacted by value and looked for in answers. */
export function headerSecrets(headers: RunHeaders | undefined): string[] {
  return Object.values(headers ?? {}).flatMap((byName) => Object.values(byName ?? {}));
}
