/** Secrets shorter than this are not looked for: they would turn up in responses by chance. */
export const MIN_SECRET_LENGTH = 6;

/** The secrets a check looks for in responses. */
export interface SecretLookup {
  /** How many secrets are known. */
  readonly size: number;
  /** Every known secret that occurs in `text`, each once. */
  foundIn(text: string): string[];
}

/** Secret values, indexed by their first characters so that finding all of them in a text is one pass over it. */
export interface SecretIndex extends SecretLookup {
  /** Adds a secret (ignored when shorter than MIN_SECRET_LENGTH). */
  add(secret: string): void;
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
 * Creates an index of secret values. A run sends hundreds of secrets and judges every response against all of
 * them; looking each one up with `includes` made that quadratic (0.7 s of a 1,400-request run). Here each position
 * of the text is one map lookup on the hash of the MIN_SECRET_LENGTH characters there, rolled from the position
 * before (a slice per position made a string per character of every response: most of a long run's garbage), and
 * a secret whose prefix hashes so is confirmed with `startsWith`. A run keeps every secret it sent, so each costs
 * little beside its own string: a hash that one secret's prefix has (nearly all of them) maps to that secret itself,
 * and only a hash shared by several maps to a list.
 */
export function createSecretIndex(initial: Iterable<string> = []): SecretIndex {
  const byPrefix = new Map<number, string | string[]>();
  /**
   * Marks the character codes the secrets start with (a table, cheaper to read than a set): most positions of a text
   * are passed over on this alone.
   */
  const firstChars = new Uint8Array(65_536);
  let size = 0;
  const add = (secret: string): void => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return;
    const key = windowHash(secret, 0) & KEY_MASK;
    const bucket = byPrefix.get(key);
    if (bucket === secret || (Array.isArray(bucket) && bucket.includes(secret))) return;
    if (bucket === undefined) byPrefix.set(key, secret);
    else if (Array.isArray(bucket)) bucket.push(secret);
    else byPrefix.set(key, [bucket, secret]);
    firstChars[secret.charCodeAt(0)] = 1;
    size += 1;
  };
  for (const secret of initial) add(secret);
  return {
    add,
    get size() {
      return size;
    },
    foundIn(text) {
      if (size === 0 || text.length < MIN_SECRET_LENGTH) return [];
      const found = new Set<string>();
      const last = text.length - MIN_SECRET_LENGTH;
      let hash = windowHash(text, 0);
      for (let at = 0; ; at++) {
        if (firstChars[text.charCodeAt(at)] === 1) {
          const bucket = byPrefix.get(hash & KEY_MASK);
          if (typeof bucket === 'string') {
            if (text.startsWith(bucket, at)) found.add(bucket);
          } else if (bucket !== undefined)
            for (const secret of bucket) if (text.startsWith(secret, at)) found.add(secret);
        }
        if (at === last) break;
        hash =
          (Math.imul((hash - Math.imul(text.charCodeAt(at), LEAVING)) | 0, BASE) +
            text.charCodeAt(at + MIN_SECRET_LENGTH)) |
          0;
      }
      return found.size === 0 ? [] : [...found];
    },
  };
}
