/** Secrets shorter than this are not looked for: they would turn up in responses by chance. */
export const MIN_SECRET_LENGTH = 6;

/** How a secret can appear in a response: as sent, or in one of the encodings a leak commonly takes. */
export type SecretForm =
  | 'plain'
  | 'base64'
  | 'base64url'
  | 'basic'
  | 'percent'
  | 'form'
  | 'json'
  | 'hex'
  | 'part'
  | 'base64url part';

/** How long a run of a secret's characters is looked for on its own: a secret leaked in part. */
export const SECRET_PART_LENGTH = 12;

/** Each form in words, for a finding. */
export const SECRET_FORM_WORDS: Readonly<Record<SecretForm, string>> = Object.freeze({
  plain: 'as sent',
  base64: 'base64 of the value',
  base64url: 'base64url of the value',
  basic: 'base64 of username:password, as HTTP Basic carries it',
  percent: 'percent-encoded',
  form: 'form-encoded',
  json: 'with JSON escapes',
  hex: 'hex-encoded',
  part: `in part (a run of ${SECRET_PART_LENGTH} of its characters)`,
  'base64url part': `in part (a run of ${SECRET_PART_LENGTH} characters of its base64url)`,
});

/** A username and password sent together: besides each value, the index looks for them as HTTP Basic carries them. */
export interface SecretPair {
  readonly username: string;
  readonly password: string;
}

/** One secret found in a text: the secret (`username:password` for a pair), the form it took and the text matched. */
export interface SecretFound {
  readonly secret: string;
  readonly form: SecretForm;
  readonly text: string;
}

/**
 * Why a run knows a secret: `sent` in a request (its credentials, a request-only field), which `secrets.absent` looks
 * for in responses, or only `held` (returned in a response, a network setting's password), which is only redacted. A
 * secret held and then sent is sent.
 */
export type SecretKind = 'sent' | 'held';

/** The secrets a check looks for in responses. */
export interface SecretLookup {
  /** How many secrets are known (a pair counts once). */
  readonly size: number;
  /** Every known secret that occurs in `text`, in any of its forms, each form once, but inside a longer one found. */
  foundIn(text: string): SecretFound[];
}

/** Secret values in every form, indexed so that finding all of them in a text is one pass over it. */
export interface SecretIndex extends SecretLookup {
  /**
   * Adds a secret, or a username and password pair, as `sent` unless told (a value shorter than MIN_SECRET_LENGTH is
   * ignored).
   */
  add(secret: string | SecretPair, kind?: SecretKind): void;
  /** The secrets sent, as a lookup of their own: what `foundIn` would be of an index given only those. */
  readonly sent: SecretLookup;
  /** Every form of every known secret, of either kind, that occurs in `text`, inside another one or not. */
  everyIn(text: string): SecretFound[];
}

/** The UTF-8 bytes of a value. */
const utf8 = (value: string): Buffer => Buffer.from(value, 'utf8');

/** Base64 without its padding, so that it is found padded or not. */
const unpadded = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

/** A value with JSON's escapes, as JavaScript writes them, and with `\/` and `\uXXXX` as others do. */
function jsonForms(value: string): string[] {
  const escaped = JSON.stringify(value).slice(1, -1);
  const strict = escaped
    .replaceAll('/', '\\/')
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return [escaped, strict];
}

/**
 * Every form of a secret value worth looking for, with the plain value first; the same text may come twice (base64url
 * is base64 when the latter has no `+` or `/`).
 */
export function secretForms(secret: string | SecretPair): [SecretForm, string][] {
  if (typeof secret !== 'string') return [['basic', unpadded(utf8(`${secret.username}:${secret.password}`))]];
  const bytes = utf8(secret);
  const hex = bytes.toString('hex');
  return [
    ['plain', secret],
    ['base64', unpadded(bytes)],
    ['base64url', bytes.toString('base64url')],
    ['percent', encodeURIComponent(secret)],
    ['form', new URLSearchParams([['', secret]]).toString().slice(1)],
    ...jsonForms(secret).map((text): [SecretForm, string] => ['json', text]),
    ['hex', hex],
    ['hex', hex.toUpperCase()],
  ];
}

/** Every run of SECRET_PART_LENGTH characters of a secret value and of its base64url: the forms of a leak in part. */
export function secretParts(secret: string): [SecretForm, string][] {
  const runs = (text: string, form: SecretForm): [SecretForm, string][] =>
    Array.from({ length: Math.max(0, text.length - SECRET_PART_LENGTH + 1) }, (_, at) => [
      form,
      text.slice(at, at + SECRET_PART_LENGTH),
    ]);
  return [...runs(secret, 'part'), ...runs(utf8(secret).toString('base64url'), 'base64url part')];
}

/**
 * The window hash's base, and the keys kept to 30 bits so that V8 holds them as small integers (no number allocated per
 * lookup).
 */
const BASE = 31;
const KEY_MASK = 0x3fff_ffff;
/** BASE to the power MIN_SECRET_LENGTH - 1, modulo 2^32: what the character leaving the window weighed in its hash. */
const LEAVING = Array.from({ length: MIN_SECRET_LENGTH - 1 }).reduce<number>((power) => Math.imul(power, BASE), 1);

/** The hash of the MIN_SECRET_LENGTH characters of `text` from `at`, modulo 2^32 (before KEY_MASK). */
function windowHash(text: string, at: number): number {
  let hash = 0;
  for (let i = at; i < at + MIN_SECRET_LENGTH; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * One form of a secret as indexed: where its last MIN_SECRET_LENGTH characters start in it, and its kind (a form held
 * and then sent becomes the sent secret's).
 */
interface Entry {
  secret: string;
  form: SecretForm;
  kind: SecretKind;
  readonly text: string;
  readonly tail: number;
}

/**
 * Creates an index of secret values in all their forms. A run sends hundreds of secrets and judges every response
 * against all of them; looking each form up with `includes` made that quadratic (0.7 s of a 1,400-request run, for the
 * plain form alone). Here every form of every secret is one entry of the same table, keyed by the hash of its last
 * MIN_SECRET_LENGTH characters (the first ones are shared: every generated secret starts `sv_`, so every hex form
 * starts `73765f`), and each position of the text is one map lookup on the hash of the MIN_SECRET_LENGTH characters
 * there, rolled from the position before (a slice per position made a string per character of every response); an
 * entry whose last characters hash so is confirmed with `startsWith` where it would begin: one pass over the text,
 * whatever the number of forms. A hash that one entry has (nearly all) maps to that entry itself, and only a hash
 * shared by several maps to a list.
 */
export function createSecretIndex(initial: Iterable<string | SecretPair> = []): SecretIndex {
  const byTail = new Map<number, Entry | Entry[]>();
  /** Every form's text already indexed: a text is indexed once, under the first form that makes it. */
  const known = new Map<string, Entry>();
  /**
   * Marks the character codes the entries' last windows start with (a table, cheaper to read than a set): most
   * positions of a text are passed over on this alone.
   */
  const windowStarts = new Uint8Array(65_536);
  const sizes = { sent: 0, held: 0 };
  /** Indexes one form; true when it is new, or new to the secrets sent. */
  const index = (found: SecretFound, kind: SecretKind): boolean => {
    const had = known.get(found.text);
    if (had !== undefined) {
      if (had.kind === 'sent' || kind === 'held') return false;
      had.secret = found.secret;
      had.form = found.form;
      had.kind = kind;
      return true;
    }
    // Written out field by field, in one order: an entry spread from `found` got a hidden class of its own in V8 (three
    // objects of shape per entry, about 250 bytes: 18 MB of a 37 MB index of 18,000 secrets).
    const entry: Entry = {
      secret: found.secret,
      form: found.form,
      kind,
      text: found.text,
      tail: found.text.length - MIN_SECRET_LENGTH,
    };
    known.set(entry.text, entry);
    const key = windowHash(entry.text, entry.tail) & KEY_MASK;
    const bucket = byTail.get(key);
    if (bucket === undefined) byTail.set(key, entry);
    else if (Array.isArray(bucket)) bucket.push(entry);
    else byTail.set(key, [bucket, entry]);
    windowStarts[entry.text.charCodeAt(entry.tail)] = 1;
    return true;
  };
  const add = (secret: string | SecretPair, kind: SecretKind = 'sent'): void => {
    if (typeof secret === 'string') {
      const had = known.get(secret);
      if (secret.length < MIN_SECRET_LENGTH || (had !== undefined && (had.kind === 'sent' || kind === 'held'))) return;
    } else if (
      typeof secret?.username !== 'string' ||
      typeof secret.password !== 'string' ||
      secret.password.length < MIN_SECRET_LENGTH
    )
      return;
    const name = typeof secret === 'string' ? secret : `${secret.username}:${secret.password}`;
    let added = false;
    // A secret sent is looked for in part too; one only held is redacted whole.
    const parts = kind === 'sent' && typeof secret === 'string' ? secretParts(secret) : [];
    for (const [form, text] of [...secretForms(secret), ...parts])
      added = index({ secret: name, form, text }, kind) || added;
    if (added) sizes[kind] += 1;
  };
  for (const secret of initial) add(secret);
  const matches = (text: string, entry: Entry, at: number): boolean =>
    at >= entry.tail && text.startsWith(entry.text, at - entry.tail);
  /** Every entry of the kind (of either, when none is given) that occurs in `text`: one pass over it. */
  const scan = (text: string, kind?: SecretKind): Set<Entry> => {
    const found = new Set<Entry>();
    if (known.size === 0 || text.length < MIN_SECRET_LENGTH) return found;
    const wanted = (entry: Entry): boolean => kind === undefined || entry.kind === kind;
    const last = text.length - MIN_SECRET_LENGTH;
    let hash = windowHash(text, 0);
    for (let at = 0; ; at++) {
      if (windowStarts[text.charCodeAt(at)] === 1) {
        const bucket = byTail.get(hash & KEY_MASK);
        if (Array.isArray(bucket)) {
          for (const entry of bucket) if (wanted(entry) && matches(text, entry, at)) found.add(entry);
        } else if (bucket !== undefined && wanted(bucket) && matches(text, bucket, at)) found.add(bucket);
      }
      if (at === last) break;
      hash =
        (Math.imul((hash - Math.imul(text.charCodeAt(at), LEAVING)) | 0, BASE) +
          text.charCodeAt(at + MIN_SECRET_LENGTH)) |
        0;
    }
    return found;
  };
  /**
   * The secrets of the kind found in `text`; a form found inside a longer one found (base64 of a username, inside that
   * of `username:password`) is the longer one's match, and the runs of one secret's part found are one: one finding
   * per leak.
   */
  const foundIn = (text: string, kind?: SecretKind): SecretFound[] => {
    const all = [...scan(text, kind)];
    const parts = new Set<string>();
    return all
      .filter((entry) => !all.some((other) => other !== entry && other.text.includes(entry.text)))
      .filter((entry) => {
        if (entry.form !== 'part' && entry.form !== 'base64url part') return true;
        const leak = `${entry.form}\n${entry.secret}`;
        if (parts.has(leak)) return false;
        parts.add(leak);
        return true;
      })
      .map(({ secret, form, text: matched }) => ({ secret, form, text: matched }));
  };
  return {
    add,
    get size() {
      return sizes.sent + sizes.held;
    },
    foundIn: (text) => foundIn(text),
    sent: {
      get size() {
        return sizes.sent;
      },
      foundIn: (text) => (sizes.sent === 0 ? [] : foundIn(text, 'sent')),
    },
    everyIn: (text) => [...scan(text)].map(({ secret, form, text: matched }) => ({ secret, form, text: matched })),
  };
}
