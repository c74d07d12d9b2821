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
 * Creates an index of secret values. A run sends hundreds of secrets and judges every response against all of
 * them; looking each one up with `includes` made that quadratic (0.7 s of a 1,400-request run). Here each
 * position of the text that starts like a secret is one map lookup on the MIN_SECRET_LENGTH characters there.
 * A run keeps every secret it sent, so each costs little beside its own string: a prefix that one secret starts
 * (nearly all of them) maps to that secret itself, and only a prefix shared by several maps to a list.
 */
export function createSecretIndex(initial: Iterable<string> = []): SecretIndex {
  const byPrefix = new Map<string, string | string[]>();
  /** Marks the character codes the secrets start with (a table, cheaper to read than a set): most positions of a text are passed over on this alone. */
  const firstChars = new Uint8Array(65_536);
  let size = 0;
  const add = (secret: string): void => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return;
    const prefix = secret.slice(0, MIN_SECRET_LENGTH);
    const bucket = byPrefix.get(prefix);
    if (bucket === secret || (Array.isArray(bucket) && bucket.includes(secret))) return;
    if (bucket === undefined) byPrefix.set(prefix, secret);
    else if (Array.isArray(bucket)) bucket.push(secret);
    else byPrefix.set(prefix, [bucket, secret]);
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
      const found = new Set<string>();
      if (size === 0) return [];
      for (let at = 0; at + MIN_SECRET_LENGTH <= text.length; at++) {
        if (firstChars[text.charCodeAt(at)] === 0) continue;
        const bucket = byPrefix.get(text.slice(at, at + MIN_SECRET_LENGTH));
        if (bucket === undefined) continue;
        if (typeof bucket === 'string') {
          if (text.startsWith(bucket, at)) found.add(bucket);
        } else for (const secret of bucket) if (text.startsWith(secret, at)) found.add(secret);
      }
      return [...found];
    },
  };
}
